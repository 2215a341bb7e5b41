import { describe, expect, it } from 'vitest';
import { decodeBundle, encodeBundle } from '../../formats/bundle/bundle.js';
import { createError, ERROR_CODES, ERRORS, formatMessage, isKddError, KddError, toKddError, warning } from '../../model/errors.js';
import { boolParam, enumParam, intParam, numberParam, paramsObject, requireIndex, stringListParam, stringParam } from '../../runtime/validate.js';

function thrown(fn: () => unknown): KddError {
  try {
    fn();
  } catch (error) {
    if (isKddError(error)) return error;
    throw error;
  }
  throw new Error('expected a KddError');
}

describe('the error table', () => {
  it('gives every code a message, an HTTP status and an exit code', () => {
    for (const code of ERROR_CODES) {
      const spec = ERRORS[code];
      expect(spec.message.length).toBeGreaterThan(0);
      expect(spec.http).toBeGreaterThanOrEqual(400);
      expect(spec.exit).toBeGreaterThan(0);
    }
  });

  it('covers the codes the spec queries name', () => {
    for (const code of ['QUERY_TOO_SHORT', 'INDEX_UNAVAILABLE', 'NO_EMBEDDINGS', 'TOKEN_LIMIT_EXCEEDED', 'NODE_NOT_FOUND', 'INVALID_CHANGE_TYPE', 'INVALID_DEPTH', 'INVALID_EDGE_TYPE', 'INVALID_SCORE_RANGE', 'EMPTY_HINTS', 'UNKNOWN_KIND']) {
      expect(ERROR_CODES).toContain(code);
    }
  });

  it('maps a missing node to 404 and a distinct exit code', () => {
    const error = createError('NODE_NOT_FOUND', { node_id: 'Entity:NoExiste' });
    expect(error.message).toBe('Node not found: Entity:NoExiste');
    expect(error.status).toBe(404);
    expect(error.exitCode).toBe(3);
    expect(error).toBeInstanceOf(Error);
  });

  it('serialises to the wire shape {error:{code,message}}', () => {
    const error = createError('INVALID_DEPTH', { min: 1, max: 5, value: 9 });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ error: { code: 'INVALID_DEPTH', message: 'Depth must be an integer between 1 and 5 (got 9)' } });
  });

  it('leaves an unknown placeholder visible instead of printing undefined', () => {
    expect(formatMessage('a {x} b {y}', { x: 1 })).toBe('a 1 b {y}');
  });
});

describe('isKddError', () => {
  it('recognises an error from another copy of the module by its registry brand', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('kdd-index.KddError')]: true, code: 'NODE_NOT_FOUND' });
    expect(isKddError(foreign)).toBe(true);
    expect(isKddError(new Error('x'))).toBe(false);
    expect(isKddError(null)).toBe(false);
    expect(isKddError({ code: 'NODE_NOT_FOUND' })).toBe(false);
  });

  it('wraps anything else as INTERNAL_ERROR keeping the cause', () => {
    const cause = new TypeError('boom');
    const error = toKddError(cause);
    expect(error.code).toBe('INTERNAL_ERROR');
    expect(error.cause).toBe(cause);
  });
});

describe('warning', () => {
  it('uses the warning template when the table has one', () => {
    expect(warning('NO_EMBEDDINGS', {})).toEqual({ code: 'NO_EMBEDDINGS', message: 'No embeddings available, falling back to graph + lexical search' });
    expect(warning('TOKEN_LIMIT_EXCEEDED', { max_tokens: 8000 })).toEqual({ code: 'TOKEN_LIMIT_EXCEEDED', message: 'Results truncated at 8000 tokens' });
  });
});

describe('decodeBundle', () => {
  it('rejects garbage and unknown formats with INDEX_UNAVAILABLE', () => {
    expect(thrown(() => decodeBundle(new Uint8Array([0xc1]))).code).toBe('INDEX_UNAVAILABLE');
    const wrongFormat = thrown(() => decodeBundle(encodeBundle({ format: 99 } as never)));
    expect(wrongFormat.code).toBe('INDEX_UNAVAILABLE');
    expect(wrongFormat.message).toContain('unsupported bundle format 99');
  });
});

describe('validators', () => {
  it('apply defaults and coerce strings', () => {
    expect(intParam({}, 'depth', { min: 1, max: 5, default: 2 })).toBe(2);
    expect(intParam({ depth: '4' }, 'depth', { min: 1, max: 5, default: 2 })).toBe(4);
    expect(numberParam({ min_score: '0.5' }, 'min_score', { min: 0, max: 1, default: 0.7 })).toBe(0.5);
    expect(boolParam({ respect_layers: 'false' }, 'respect_layers', { default: true })).toBe(false);
    expect(enumParam({ d: 'OUT' }, 'd', ['in', 'out'] as const, { caseInsensitive: true })).toBe('out');
    expect(stringListParam({ k: 'a, b,,a' }, 'k')).toEqual(['a', 'b']);
    expect(stringListParam({ k: ['Entity'] }, 'k', { allowed: ['entity'] })).toEqual(['entity']);
    expect(stringParam({ q: '  hi  ' }, 'q')).toBe('hi');
    expect(paramsObject(undefined)).toEqual({});
  });

  it('name the field in INVALID_PARAMS', () => {
    const error = thrown(() => intParam({ limit: 0 }, 'limit', { min: 1, max: 100, default: 10 }));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toBe("Invalid parameter 'limit': must be an integer between 1 and 100");
    expect(error.params.field).toBe('limit');
    expect(thrown(() => stringParam({}, 'root_node')).message).toBe("Invalid parameter 'root_node': is required");
    expect(thrown(() => stringListParam({ k: [1] }, 'k')).message).toContain("'k'");
    expect(thrown(() => paramsObject('x')).code).toBe('INVALID_PARAMS');
  });

  it('throw the code the caller names, with that code\'s template', () => {
    expect(thrown(() => intParam({ depth: 9 }, 'depth', { min: 1, max: 5, default: 2, code: 'INVALID_DEPTH' })).message).toBe(
      'Depth must be an integer between 1 and 5 (got 9)',
    );
    expect(thrown(() => intParam({ depth: 'x' }, 'depth', { min: 1, max: 5, default: 2, code: 'INVALID_DEPTH' })).code).toBe('INVALID_DEPTH');
    expect(thrown(() => stringParam({ query_text: 'ab' }, 'query_text', { minLength: 3, code: 'QUERY_TOO_SHORT' })).message).toBe(
      'Query text must be at least 3 characters',
    );
    expect(thrown(() => enumParam({ change_type: 'zap' }, 'change_type', ['remove'], { code: 'INVALID_CHANGE_TYPE' })).message).toBe(
      'Unknown change type: zap (expected one of: remove)',
    );
    expect(thrown(() => stringListParam({ hints: [] }, 'hints', { minItems: 1, code: 'EMPTY_HINTS' })).code).toBe('EMPTY_HINTS');
    expect(thrown(() => numberParam({ min_score: 2 }, 'min_score', { min: 0, max: 1, default: 0.7, code: 'INVALID_SCORE_RANGE' })).message).toBe(
      'min_score must be between 0 and 1 (got 2)',
    );
  });

  it('report a missing index as INDEX_UNAVAILABLE', () => {
    expect(thrown(() => requireIndex(undefined)).code).toBe('INDEX_UNAVAILABLE');
  });
});
