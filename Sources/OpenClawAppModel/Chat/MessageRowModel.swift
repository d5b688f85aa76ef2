import OpenClawPresentation

/// The app's name for a chat bubble's model: the shared ``MessageRow`` (the terminal prints the same
/// rows), kept so the views read as they did.
public typealias MessageRowModel = MessageRow
