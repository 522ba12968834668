import Foundation

@testable import IdleWork
@testable import IdleWorkTesting

/// A reusable cell for the stress and model tests: it shows one index path at a time, and the test owns the only
/// strong reference (the queue must hold it weakly).
final class HardeningCell {}
