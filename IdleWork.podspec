# CocoaPods metadata. Kept in step with Package.swift and Sources/IdleWork/IdleWorkInfo.swift by
# .ci/check-podspec (version, platforms, Swift version, source glob); change them together.
Pod::Spec.new do |s|
  s.name             = 'IdleWork'
  s.version          = '0.2.0'
  s.summary          = 'Runs small main-thread tasks when the main run loop is about to sleep, so frames come first.'
  s.description      = <<-DESC
    IdleWork slices heavy main-thread work (image draws, text layout) into small tasks that run when the main
    CFRunLoop is about to sleep, one slice per pass, in the default mode only, so scrolling stays smooth. Cell-bound
    tasks are skipped when their cell was reused; the queue is bounded and every task is accounted for.
  DESC
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
  s.pod_target_xcconfig = { 'SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Debug]' => '$(inherited) IDLEWORK_INTERNAL_CHECKS' }
end
