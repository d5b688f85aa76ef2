print("openclaw-chat")
