// The one wording of schema violations, in zh-CN and en: a plain table so both product families share it without a
// message registry (Aalis's api-tools spreads it into its catalogue as `tools.schema.*`; Pling reads it directly).

export type SchemaTextLocale = 'zh-CN' | 'en';

/** A violation keyword (see validateJsonSchema), or `alternative` / `more` for the list's own lines. */
export type SchemaTextKey =
  | 'type'
  | 'required'
  | 'additionalProperties'
  | 'enum'
  | 'const'
  | 'minimum'
  | 'maximum'
  | 'exclusiveMinimum'
  | 'exclusiveMaximum'
  | 'multipleOf'
  | 'minLength'
  | 'maxLength'
  | 'pattern'
  | 'patternInvalid'
  | 'minItems'
  | 'maxItems'
  | 'uniqueItems'
  | 'anyOf'
  | 'oneOf'
  | 'oneOfMany'
  | 'not'
  | '$ref'
  | 'depth'
  | 'alternative'
  | 'more';

/**
 * Templates with `{name}` placeholders: `{path}` and the violation's params. The en wording never puts a noun after a
 * number ("at least 1 characters"): this table is filled without plural rules, in Pling as in Aalis.
 */
export const SCHEMA_VIOLATION_TEXTS: Readonly<Record<SchemaTextLocale, Readonly<Record<SchemaTextKey, string>>>> = {
  'zh-CN': {
    type: '{path}：类型应为 {expected}，实际为 {received}',
    required: '{path}：缺少必填字段「{property}」',
    additionalProperties: '{path}：不认识的字段「{property}」（可用的字段：{known}）',
    enum: '{path}：只能取 {allowed} 之一，实际为 {received}',
    const: '{path}：只能是 {expected}，实际为 {received}',
    minimum: '{path}：不能小于 {limit}，实际为 {received}',
    maximum: '{path}：不能大于 {limit}，实际为 {received}',
    exclusiveMinimum: '{path}：必须大于 {limit}，实际为 {received}',
    exclusiveMaximum: '{path}：必须小于 {limit}，实际为 {received}',
    multipleOf: '{path}：必须是 {limit} 的整数倍，实际为 {received}',
    minLength: '{path}：至少 {limit} 个字符，实际 {received} 个',
    maxLength: '{path}：最多 {limit} 个字符，实际 {received} 个',
    pattern: '{path}：不符合格式 {pattern}',
    patternInvalid: '{path}：参数定义里的正则 {pattern} 无效（工具的问题，不是参数的问题）',
    minItems: '{path}：至少 {limit} 项，实际 {received} 项',
    maxItems: '{path}：最多 {limit} 项，实际 {received} 项',
    uniqueItems: '{path}：与第 {index} 项重复',
    anyOf: '{path}：不符合 {count} 种允许写法中的任何一种：',
    oneOf: '{path}：不符合 {count} 种允许写法中的任何一种：',
    oneOfMany: '{path}：同时符合 {matched} 种写法，只能符合一种',
    not: '{path}：不允许取这个值',
    $ref: '{path}：参数定义引用了不存在的 {ref}（工具的问题，不是参数的问题）',
    depth: '{path}：嵌套超过 {limit} 层',
    alternative: '写法 {index}：',
    more: '……另有 {count} 处',
  },
  en: {
    type: '{path}: expected {expected}, received {received}',
    required: '{path}: required property "{property}" is missing',
    additionalProperties: '{path}: unknown property "{property}" (known properties: {known})',
    enum: '{path}: must be one of {allowed}, received {received}',
    const: '{path}: must be {expected}, received {received}',
    minimum: '{path}: must be at least {limit}, received {received}',
    maximum: '{path}: must be at most {limit}, received {received}',
    exclusiveMinimum: '{path}: must be greater than {limit}, received {received}',
    exclusiveMaximum: '{path}: must be less than {limit}, received {received}',
    multipleOf: '{path}: must be a multiple of {limit}, received {received}',
    minLength: '{path}: too short (length at least {limit}, has {received})',
    maxLength: '{path}: too long (length at most {limit}, has {received})',
    pattern: '{path}: does not match the pattern {pattern}',
    patternInvalid:
      '{path}: the parameters schema has an invalid pattern {pattern} (a fault of the tool, not of the arguments)',
    minItems: '{path}: too few items (at least {limit}, has {received})',
    maxItems: '{path}: too many items (at most {limit}, has {received})',
    uniqueItems: '{path}: duplicates item {index}',
    anyOf: '{path}: matches none of the allowed forms ({count}):',
    oneOf: '{path}: matches none of the allowed forms ({count}):',
    oneOfMany: '{path}: matches several forms ({matched}), but must match exactly one',
    not: '{path}: this value is not allowed',
    $ref: '{path}: the parameters schema refers to {ref}, which does not exist (a fault of the tool, not of the arguments)',
    depth: '{path}: nested too deeply (depth at most {limit})',
    alternative: 'form {index}:',
    more: '…and {count} more',
  },
};
