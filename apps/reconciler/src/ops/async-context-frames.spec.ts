import { asyncContextFrames, asyncContextHookWarning, nodeFlags } from './async-context-frames';

describe('async context frames', () => {
  it('are the default from Node 24 and behind a flag before', () => {
    expect(asyncContextFrames('v24.1.0', [])).toBe(true);
    expect(asyncContextFrames('v25.0.0', [])).toBe(true);
    expect(asyncContextFrames('v24.1.0', ['--no-async-context-frame'])).toBe(false);
    expect(asyncContextFrames('v22.12.0', [])).toBe(false);
    expect(asyncContextFrames('v22.12.0', ['--experimental-async-context-frame'])).toBe(true);
    expect(asyncContextFrames('v20.19.0', [])).toBe(false);
  });

  it('warns a traced process whose Node hooks every promise, and only it', () => {
    expect(asyncContextHookWarning('v20.19.0', [])).toMatch(/^WARNING: tracing on Node v20\.19\.0: .*Node 24/);
    expect(asyncContextHookWarning('v22.12.0', ['--experimental-async-context-frame'])).toBeUndefined();
    expect(asyncContextHookWarning('v24.1.0', [])).toBeUndefined();
  });

  it('reads the flags of the command line and of NODE_OPTIONS', () => {
    expect(
      nodeFlags(['--enable-source-maps'], ' --experimental-async-context-frame  --max-old-space-size=512 '),
    ).toEqual(['--enable-source-maps', '--experimental-async-context-frame', '--max-old-space-size=512']);
    expect(nodeFlags([], undefined)).toEqual([]);
  });
});
