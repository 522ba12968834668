# CocoaPods metadata. Kept in step with Package.swift and Sources/IdleWork/IdleQueue/IdleWorkInfo.swift by
# .ci/check-podspec (version, platforms, Swift version, source glob); change them together.
Pod::Spec.new do |s|
  s.name             = 'IdleWork'
  s.version          = '0.2.0'
  s.summary          = 'Heavy cell work without dropped frames: small main-thread tasks run between frames, stale ones dropped.'
  s.description      = <<-DESC
    IdleWork queues heavy cell work (image draws, text layout) as small tasks and runs them from a run-loop observer
    when the main thread has nothing else to do, a task only if it fits before the next frame. Tasks for a cell that
    was reused or reloaded are skipped, visible rows go first, the queue is bounded and every task is accounted for.
    The IdleWorkPreparation pod prepares results on workers, caches and prefetches them, and applies them in its passes.
  DESC
  # The repository has no public URL yet: `pod 'IdleWork', :path => '../IdleWork'` (the README's line) reads
  # neither homepage nor source. Both name the URL it will have once published, with OWNER to fill in.
  s.homepage         = 'https://github.com/OWNER/IdleWork'
  s.license          = { :type => 'MIT', :file => 'LICENSE' }
  s.author           = { 'IdleWork contributors' => 'idlework@example.com' }
  s.source           = { :git => 'https://github.com/OWNER/IdleWork.git', :tag => s.version.to_s }

  s.ios.deployment_target  = '13.0'
  s.tvos.deployment_target = '13.0'
  s.osx.deployment_target  = '10.15'
  s.swift_versions         = ['6.0']

  s.source_files     = 'Sources/IdleWork/**/*.swift'
  s.frameworks       = 'Foundation'
  # As Package.swift: the policy core's invariant checks in debug builds only.
  # The package name SwiftPM gives every target, so that the IdleWorkPreparation pod sees the same declarations.
  s.pod_target_xcconfig = {
    'SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Debug]' => '$(inherited) IDLEWORK_INTERNAL_CHECKS',
    'OTHER_SWIFT_FLAGS' => '$(inherited) -package-name IdleWork'
  }
end
