// The server is the core on a real socket: tests, the terminal and benchmarks import this module and
// get the core's types (configuration, agent scripts, faults) with it.
@_exported import OpenClawTestGatewayCore
