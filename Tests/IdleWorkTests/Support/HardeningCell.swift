import Foundation

@testable import IdleWork
@testable import IdleWorkTesting

/// A reusable cell for the hardening tests: it shows one index path at a time, and the test owns the only
/// strong reference (the queue must hold it weakly).
final class HardeningCell {}
