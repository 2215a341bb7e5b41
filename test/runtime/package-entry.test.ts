import { describe, expect, it } from 'vitest';
import * as runtime from '../../runtime/index.js';
import * as root from '../../index.js';

describe('package entry points', () => {
  it('kdd-index/runtime exposes the loader and every query', () => {
    for (const name of ['loadIndex', 'fetchIndex', 'decodeBundle', 'context', 'search', 'hints', 'graph', 'impact', 'coverage', 'violations', 'health', 'chunks']) {
      expect(typeof (runtime as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('kdd-index exposes the compiler, the facade and the error table', () => {
    for (const name of ['build', 'buildIndex', 'compile', 'openKnowledgeBase', 'loadBundle', 'createError']) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });
});
