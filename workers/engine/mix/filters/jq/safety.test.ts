import { describe, expect, it } from 'vitest';
import { checkSafety, JqUnsafeError } from './safety.js';

describe('checkSafety', () => {
  it.each([
    ['input', /`input` .*other documents/],
    ['[inputs]', /`inputs`/],
    ['env.PATH', /`env` .*environment/],
    ['$ENV.HOME', /`\$ENV`/],
    ['halt', /`halt`/],
    ['halt_error(1)', /`halt_error`/],
    ['debug', /`debug`/],
    ['debug("x")', /`debug`/],
    ['stderr', /`stderr`/],
    ['input_filename', /`input_filename`/],
    ['input_line_number', /`input_line_number`/],
    ['modulemeta', /`modulemeta`/],
    ['get_search_list', /`get_search_list`/],
    ['get_jq_origin', /`get_jq_origin`/],
    ['get_prog_origin', /`get_prog_origin`/],
    ['import "a" as a; .', /`import`/],
    ['include "a"; .', /`include`/],
    ['$__loc__', /`\$__loc__`/],
    ['$__prog_args', /`\$__prog_args`/],
    ['{$__loc__}', /`\$__loc__`/],
    ['"\\(input)"', /`input`/],
    ['@text "a\\("b\\(env)")"', /`env`/],
    ['def f: inputs; f', /`inputs`/],
    ['[.[] | (input)]', /`input`/],
    ['{a: 1, b: env}', /`env`/],
    ['{(env): 1}', /`env`/],
    ['{a: 1 | input}', /`input`/],
    ['.a | # comment\ninput', /`input`/],
    ['def __assay_ix(f; $k): f; .a', /`__assay_ix` .*reserved/],
    ['$__assay_x', /reserved/],
  ])('rejects %j', (src, message) => {
    expect(() => checkSafety(src)).toThrow(JqUnsafeError);
    expect(() => checkSafety(src)).toThrow(message);
  });

  it.each([
    '.input',
    '."env"',
    '.attributes.inputs[0]',
    '{env: 1}',
    '{input}',
    '{a: 1, env: 2}',
    '. as {input: $x} | $x',
    '. as $input | $input',
    '"input \\(.a) env"',
    '# input\n.a',
    '"\\(.constructor)"',
    '.__proto__',
    '.a | tostring | test("env")',
    'error("halt")',
  ])('accepts %j', (src) => {
    expect(() => checkSafety(src)).not.toThrow();
  });
});
