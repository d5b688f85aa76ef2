import OpenClawProtocol

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a line typed in the interactive chat means.
///
/// Lines starting with `/` are ours only when they name one of our commands; any other `/word` goes to
/// the gateway as a message (its own commands: `/new`, `/compact`, `/reset`, `/stop` …), as upstream's
/// terminal does. `//text` sends `/text` literally. `!command` runs a shell command on this computer
/// (``ShellEscape``); `!!text` sends `!text`.
enum ChatInput: Equatable {
    case local(LocalCommand, argument: String)
    case message(String)
    /// `!command`: the command line after the `!`.
    case shell(String)
    case empty

    init(line: String) {
        let text = line.trimming(.whitespaces)
        if text.isEmpty {
            self = .empty
        } else if text.hasPrefix("//") || text.hasPrefix("!!") {
            self = .message(String(text.dropFirst()))
        } else if text.hasPrefix("!"), text.count > 1 {
            self = .shell(String(text.dropFirst()).trimming(.whitespaces))
        } else if text.hasPrefix("/") {
            let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
            let argument = parts.count > 1 ? parts[1].trimming(.whitespaces) : ""
            if let command = LocalCommand(rawValue: String(parts[0].dropFirst())) {
                self = .local(command, argument: argument)
            } else {
                self = .message(text)
            }
        } else {
            self = .message(text)
        }
    }
}

/// The interactive chat's own commands.
enum LocalCommand: String, CaseIterable {
    case help, sessions, session, new, reset, history, search, abort, think, tools, model, status, reconnect, retry
    case edit, attach, detach
    case queue, steer, usage
    case expand, save, view
    case quit, exit
    case approve, approveAlways = "approve-always", deny, approvals
    case answer, skip, questions

    /// Answers a command the running reply waits for: piped input must not hold it back until that
    /// reply ends (the reply cannot end before it is answered).
    var answersPendingApproval: Bool {
        switch self {
        case .approve, .approveAlways, .deny, .answer, .skip: true
        default: false
        }
    }

    /// Answering the agent's questions: this chat's own only when it answers them (`--questions`).
    var isQuestionCommand: Bool {
        switch self {
        case .answer, .skip, .questions: true
        default: false
        }
    }

    /// Deciding the agent's commands: this chat's own only when it is an approver (`--approvals`);
    /// otherwise the line goes to the gateway, which has an `/approve` of its own.
    var isApprovalCommand: Bool {
        switch self {
        case .approve, .approveAlways, .deny, .approvals: true
        default: false
        }
    }

    /// The usage and one line of help, in the order `/help` lists them (`exit` is an alias of `quit`).
    var help: (usage: String, text: String)? {
        switch self {
        case .help: ("/help", "this list")
        case .sessions: ("/sessions", "list sessions")
        case .session: ("/session [N|KEY]", "pick a session from a numbered list, or switch to one")
        case .new: ("/new", "start this session afresh (its history and context are cleared)")
        case .reset: ("/reset", "the same as /new")
        case .history: ("/history [N]", "show the last N messages")
        case .expand: ("/expand N", "show message N whole where history shortened it")
        case .save: ("/save N PATH", "write generated image N to a new file")
        case .view: ("/view N", "show generated image N here (kitty or iTerm2)")
        case .search: ("/search Q", "search transcripts")
        case .abort: ("/abort", "stop the running reply (or Ctrl-C)")
        case .think: ("/think LEVEL|show|hide", "off … xhigh, max or default; show or hide the agent's reasoning")
        case .tools: ("/tools", "the last reply's tool steps in full: arguments and results")
        case .model: ("/model [N|ID]", "list models (current marked), or switch; /model default resets")
        case .status: ("/status", "connection details")
        case .reconnect: ("/reconnect", "connect now (when offline or waiting to reconnect)")
        case .retry: ("/retry", "resend the last failed message")
        case .edit: ("/edit", "write a long message in $EDITOR (on a terminal)")
        case .attach: ("/attach PATH", "send a file (image, PDF, text …) with the next message")
        case .detach: ("/detach", "drop the attached files")
        case .queue: ("/queue [MODE]", "steer, followup, collect or interrupt: what typing during a reply does")
        case .steer: ("/steer TEXT", "send TEXT into the running reply")
        case .usage: ("/usage", "tokens, context and cost of this session; /usage ARG goes to the gateway")
        case .approve: ("/approve [ID]", "run the command waiting for approval, this once")
        case .approveAlways: ("/approve-always [ID]", "run it and allow it from now on")
        case .deny: ("/deny [ID]", "refuse the command waiting for approval")
        case .approvals: ("/approvals [ID|history]", "pending approvals, one in full, or the recent decided ones")
        case .answer:
            ("/answer [ID] CHOICE", "answer the agent's question: option numbers (1,3), a label, or your words")
        case .skip: ("/skip [ID]", "leave the agent's question unanswered: it decides itself")
        case .questions: ("/questions", "list the agent's open questions")
        case .quit: ("/quit", "leave (or Ctrl-D)")
        case .exit: nil
        }
    }
}
