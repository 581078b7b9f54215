// The wire-level checks real providers apply to a chat completion request, written independently of
// schema-message's validator: a request these reject would be rejected in production too.

export interface RequestProblem {
  message: string;
  param?: string;
  code?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Returns the first problem a strict OpenAI-compatible server would report, or undefined. */
export function checkChatRequest(body: unknown): RequestProblem | undefined {
  if (!isObject(body)) return { message: 'We could not parse the JSON body of your request.' };
  if (typeof body.model !== 'string' || body.model === '') {
    return { message: "Missing required parameter: 'model'.", param: 'model', code: 'missing_required_parameter' };
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return { message: "Invalid 'messages': empty array. Expected an array with minimum length 1.", param: 'messages' };
  }
  if (body.stream_options !== undefined && body.stream !== true) {
    return {
      message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
      param: 'stream_options',
    };
  }
  if (body.tools !== undefined) {
    const problem = checkTools(body.tools);
    if (problem) return problem;
  }
  return checkMessages(body.messages);
}

function checkTools(tools: unknown): RequestProblem | undefined {
  if (!Array.isArray(tools)) return { message: "Invalid 'tools': expected an array.", param: 'tools' };
  for (const [index, tool] of tools.entries()) {
    const fn = isObject(tool) ? tool.function : undefined;
    if (!isObject(tool) || tool.type !== 'function' || !isObject(fn)) {
      return { message: `Invalid 'tools[${index}]': expected a function tool.`, param: `tools[${index}]` };
    }
    if (typeof fn.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(fn.name)) {
      return {
        message: `Invalid 'tools[${index}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        param: `tools[${index}].function.name`,
      };
    }
  }
  return undefined;
}

function checkMessages(messages: unknown[]): RequestProblem | undefined {
  let pending = new Set<string>();
  for (const [index, message] of messages.entries()) {
    const param = `messages[${index}]`;
    if (!isObject(message)) return { message: `Invalid '${param}': expected an object.`, param };
    const role = message.role;
    if (role === 'tool') {
      if (typeof message.tool_call_id !== 'string' || message.tool_call_id === '') {
        return { message: `Missing required parameter: '${param}.tool_call_id'.`, param: `${param}.tool_call_id` };
      }
      if (!pending.has(message.tool_call_id)) {
        return {
          message: `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`,
          param: `${param}.role`,
        };
      }
      pending.delete(message.tool_call_id);
      if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
        return { message: `Invalid '${param}.content': expected a string or an array.`, param: `${param}.content` };
      }
      continue;
    }
    if (pending.size > 0) return unanswered(pending, index);
    switch (role) {
      case 'system':
      case 'developer':
      case 'user':
        if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
          return { message: `Invalid '${param}.content': expected a string or an array.`, param: `${param}.content` };
        }
        break;
      case 'assistant': {
        const calls = message.tool_calls;
        if (calls !== undefined && calls !== null) {
          if (!Array.isArray(calls) || calls.length === 0) {
            return { message: `Invalid '${param}.tool_calls': empty array.`, param: `${param}.tool_calls` };
          }
          const ids = new Set<string>();
          for (const [callIndex, call] of calls.entries()) {
            const fn = isObject(call) ? call.function : undefined;
            if (
              !isObject(call) ||
              typeof call.id !== 'string' ||
              call.id === '' ||
              call.type !== 'function' ||
              !isObject(fn) ||
              typeof fn.name !== 'string' ||
              typeof fn.arguments !== 'string'
            ) {
              return {
                message: `Invalid '${param}.tool_calls[${callIndex}]': expected { id, type: 'function', function: { name, arguments } }.`,
                param: `${param}.tool_calls[${callIndex}]`,
              };
            }
            ids.add(call.id);
          }
          pending = ids;
        } else if (typeof message.content !== 'string' && !Array.isArray(message.content)) {
          return {
            message: `Invalid '${param}.content': an assistant message needs content or tool_calls.`,
            param: `${param}.content`,
          };
        }
        break;
      }
      default:
        return {
          message: `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.`,
          param: `${param}.role`,
        };
    }
  }
  if (pending.size > 0) return unanswered(pending, messages.length);
  return undefined;
}

function unanswered(pending: Set<string>, index: number): RequestProblem {
  return {
    message: `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
    param: `messages.[${index}].role`,
  };
}
