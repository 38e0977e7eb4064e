/**
 * Checks a value against the subset of JSON Schema the OpenAPI document uses. Objects are
 * treated as closed: a property the schema does not name is an error, so an answer cannot carry
 * a field the document does not describe.
 */
type Schema = Record<string, unknown>;

export function schemaErrors(value: unknown, schema: Schema, root: Schema, path = '$'): string[] {
  if (typeof schema.$ref === 'string') {
    const target = schema.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)?.[key], root);
    if (!target) return [`${path}: unresolved ${schema.$ref}`];
    return schemaErrors(value, target as Schema, root, path);
  }
  const errors: string[] = [];
  if (Array.isArray(schema.allOf)) {
    const [base, ...extras] = schema.allOf as Schema[];
    errors.push(...schemaErrors(value, base as Schema, root, path));
    for (const extra of extras) errors.push(...shallowErrors(value, extra, root, path));
    return errors;
  }
  if (Array.isArray(schema.oneOf)) {
    const matching = (schema.oneOf as Schema[]).filter((s) => schemaErrors(value, s, root, path).length === 0);
    return matching.length === 1 ? [] : [`${path}: matches ${matching.length} of oneOf`];
  }
  if (Array.isArray(schema.anyOf)) {
    const matches = (schema.anyOf as Schema[]).some((s) => schemaErrors(value, s, root, path).length === 0);
    return matches ? [] : [`${path}: matches none of anyOf`];
  }
  errors.push(...shallowErrors(value, schema, root, path));
  if (isObject(value) && schema.properties) {
    const properties = schema.properties as Record<string, Schema>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in value)) errors.push(`${path}.${key}: missing`);
    }
    for (const [key, item] of Object.entries(value)) {
      const property = properties[key];
      if (!property) errors.push(`${path}.${key}: not in the schema`);
      else errors.push(...schemaErrors(item, property, root, `${path}.${key}`));
    }
  }
  if (Array.isArray(value) && schema.items) {
    value.forEach((item, i) => {
      errors.push(...schemaErrors(item, schema.items as Schema, root, `${path}[${i}]`));
    });
  }
  return errors;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

/** The keywords about the value itself, not its members. */
function shallowErrors(value: unknown, schema: Schema, root: Schema, path: string): string[] {
  const errors: string[] = [];
  if (schema.type !== undefined) {
    const types = ([] as unknown[]).concat(schema.type);
    const actual = typeOf(value);
    if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
      errors.push(`${path}: ${actual} is not ${types.join(' or ')}`);
    }
  }
  if (schema.enum && !(schema.enum as unknown[]).includes(value)) errors.push(`${path}: ${String(value)} not in enum`);
  if ('const' in schema && schema.const !== value) errors.push(`${path}: is not ${String(schema.const)}`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) errors.push(`${path}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) errors.push(`${path}: above maximum`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) errors.push(`${path}: too short`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) errors.push(`${path}: too long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) {
      errors.push(`${path}: does not match ${schema.pattern}`);
    }
    if (schema.format === 'uuid' && !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/.test(value)) {
      errors.push(`${path}: not a uuid`);
    }
    if (schema.format === 'date-time' && Number.isNaN(Date.parse(value))) errors.push(`${path}: not a date-time`);
    if (schema.format === 'uri' && !URL.canParse(value)) errors.push(`${path}: not a URI`);
  }
  if (Array.isArray(value) && typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
    errors.push(`${path}: too many items`);
  }
  if (isObject(value) && schema.properties && !schema.type) {
    for (const [key, property] of Object.entries(schema.properties as Record<string, Schema>)) {
      if (key in value) errors.push(...shallowErrors(value[key], property, root, `${path}.${key}`));
    }
  }
  return errors;
}
