import FeedDemoKit
import Foundation

// FeedDemo: a feed simulated on the real main CFRunLoop with an iOS-like frame pipeline, comparing how
// image draws get scheduled. A synchronous entry point: the program drives the main run loop itself (an
// async `main` never runs it).
let status = MainActor.assumeIsolated { FeedDemoMain.run(arguments: Array(CommandLine.arguments.dropFirst())) }
exit(status)
