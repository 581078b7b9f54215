// A small, safe arithmetic evaluator for the `calculator` tool: numbers, + - * / % ^ (right-associative), unary
// signs, parentheses, a few functions and constants. No identifiers reach JavaScript; nothing is eval'd.
import { runtimeErrors } from './runtime-errors.js';

const FUNCTIONS: Record<string, { arity: number | 'any'; fn: (...args: number[]) => number }> = {
  sqrt: { arity: 1, fn: Math.sqrt },
  abs: { arity: 1, fn: Math.abs },
  round: { arity: 1, fn: Math.round },
  floor: { arity: 1, fn: Math.floor },
  ceil: { arity: 1, fn: Math.ceil },
  log: { arity: 1, fn: Math.log10 },
  ln: { arity: 1, fn: Math.log },
  exp: { arity: 1, fn: Math.exp },
  sin: { arity: 1, fn: Math.sin },
  cos: { arity: 1, fn: Math.cos },
  tan: { arity: 1, fn: Math.tan },
  min: { arity: 'any', fn: Math.min },
  max: { arity: 'any', fn: Math.max },
};
const CONSTANTS: Record<string, number> = { pi: Math.PI, e: Math.E };

type Token = { kind: 'number'; value: number; at: number } | { kind: 'name' | 'symbol'; text: string; at: number };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < source.length) {
    const char = source[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    const number = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(at));
    if (number) {
      tokens.push({ kind: 'number', value: Number(number[0]), at });
      at += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(at));
    if (name) {
      tokens.push({ kind: 'name', text: name[0].toLowerCase(), at });
      at += name[0].length;
      continue;
    }
    if ('+-*/%^(),×÷'.includes(char)) {
      tokens.push({ kind: 'symbol', text: char === '×' ? '*' : char === '÷' ? '/' : char, at });
      at++;
      continue;
    }
    throw runtimeErrors.AALIS_CALC_UNEXPECTED({ position: at + 1, token: char });
  }
  return tokens;
}

/** Evaluates an arithmetic expression; throws a coded error (AALIS_CALC_*) that says what is wrong. */
export function calculate(expression: string): number {
  const tokens = tokenize(expression);
  let index = 0;
  const peek = () => tokens[index];
  const isSymbol = (text: string) => {
    const token = peek();
    return token?.kind === 'symbol' && token.text === text;
  };
  const unexpected = (): never => {
    const token = peek();
    if (!token) throw runtimeErrors.AALIS_CALC_INCOMPLETE();
    const text = token.kind === 'number' ? String(token.value) : token.text;
    throw runtimeErrors.AALIS_CALC_UNEXPECTED({ position: token.at + 1, token: text });
  };
  const expect = (text: string) => {
    if (!isSymbol(text)) {
      throw runtimeErrors.AALIS_CALC_EXPECTED({ position: (peek()?.at ?? expression.length) + 1, token: text });
    }
    index++;
  };

  const parseExpression = (): number => {
    let value = parseTerm();
    while (isSymbol('+') || isSymbol('-')) {
      const operator = (tokens[index++] as { text: string }).text;
      const right = parseTerm();
      value = operator === '+' ? value + right : value - right;
    }
    return value;
  };
  const parseTerm = (): number => {
    let value = parseUnary();
    while (isSymbol('*') || isSymbol('/') || isSymbol('%')) {
      const operator = (tokens[index++] as { text: string }).text;
      const right = parseUnary();
      value = operator === '*' ? value * right : operator === '/' ? value / right : value % right;
    }
    return value;
  };
  const parseUnary = (): number => {
    if (isSymbol('-')) {
      index++;
      return -parseUnary();
    }
    if (isSymbol('+')) {
      index++;
      return parseUnary();
    }
    return parsePower();
  };
  const parsePower = (): number => {
    const base = parsePrimary();
    if (isSymbol('^')) {
      index++;
      return base ** parseUnary();
    }
    return base;
  };
  const parsePrimary = (): number => {
    const token = peek();
    if (!token) return unexpected();
    if (token.kind === 'number') {
      index++;
      return token.value;
    }
    if (token.kind === 'symbol' && token.text === '(') {
      index++;
      const value = parseExpression();
      expect(')');
      return value;
    }
    if (token.kind === 'name') {
      index++;
      const fn = FUNCTIONS[token.text];
      if (fn && isSymbol('(')) {
        index++;
        const args: number[] = [];
        if (!isSymbol(')')) {
          args.push(parseExpression());
          while (isSymbol(',')) {
            index++;
            args.push(parseExpression());
          }
        }
        expect(')');
        if ((fn.arity === 'any' && args.length === 0) || (fn.arity !== 'any' && args.length !== fn.arity)) {
          throw runtimeErrors.AALIS_CALC_ARGUMENTS({
            name: token.text,
            expected: fn.arity === 'any' ? '1+' : fn.arity,
            received: args.length,
          });
        }
        return fn.fn(...args);
      }
      const constant = CONSTANTS[token.text];
      if (constant !== undefined) return constant;
      throw runtimeErrors.AALIS_CALC_UNKNOWN_NAME({
        name: token.text,
        known: [...Object.keys(FUNCTIONS).map((name) => `${name}()`), ...Object.keys(CONSTANTS)].join(', '),
      });
    }
    return unexpected();
  };

  const value = parseExpression();
  if (index < tokens.length) unexpected();
  if (!Number.isFinite(value)) throw runtimeErrors.AALIS_CALC_NOT_FINITE();
  return value;
}

/** The result as the model reads it: integers plainly, other numbers to 12 significant digits. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toPrecision(12)));
}
