/// The commands a node of this package offers, by the name the gateway routes `node.invoke` with: one
/// home for the node's handlers, the test gateway and the tests, so a name cannot drift between them.
public enum NodeCommandName {
    public static let systemRun = "system.run"
    public static let systemRunPrepare = "system.run.prepare"
    public static let systemWhich = "system.which"
    public static let systemNotify = "system.notify"
    public static let systemExecApprovalsGet = "system.execApprovals.get"
    public static let systemExecApprovalsSet = "system.execApprovals.set"
    public static let deviceInfo = "device.info"
    public static let deviceStatus = "device.status"
    public static let locationGet = "location.get"
    public static let cameraList = "camera.list"
}
