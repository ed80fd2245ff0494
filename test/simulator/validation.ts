/**
 * A small request-body validator producing errors in the shape of express-openapi-validator:
 * `{ path: '.body.holdings[3].market_value', message: 'must be number', errorCode: 'type.openapi.validation' }`.
 */

export const SCHEMA_ERROR_MESSAGE = 'An error occurred while processing your request';

export interface ValidationError {
	path: string;
	message: string;
	errorCode: string;
}

interface Nullable {
	nullable?: boolean;
}

export type Schema =
	| ({ type: 'string'; enum?: readonly string[] } & Nullable)
	| ({ type: 'number' } & Nullable)
	| ({ type: 'integer' } & Nullable)
	| ({ type: 'boolean' } & Nullable)
	| ({
			type: 'object';
			properties?: Record<string, Schema>;
			required?: readonly string[];
	  } & Nullable)
	| ({ type: 'array'; items?: Schema } & Nullable);

function typeError(path: string, type: string): ValidationError {
	return { path, message: `must be ${type}`, errorCode: 'type.openapi.validation' };
}

function hasType(schema: Schema, value: unknown): boolean {
	switch (schema.type) {
		case 'string':
			return typeof value === 'string';
		case 'number':
			return typeof value === 'number' && Number.isFinite(value);
		case 'integer':
			return typeof value === 'number' && Number.isInteger(value);
		case 'boolean':
			return typeof value === 'boolean';
		case 'object':
			return typeof value === 'object' && value !== null && !Array.isArray(value);
		case 'array':
			return Array.isArray(value);
	}
}

/** Validates `value` against `schema`; `path` is the JSON path shown in errors (default `.body`). */
export function validate(schema: Schema, value: unknown, path = '.body'): ValidationError[] {
	if (value === null && schema.nullable) return [];
	if (!hasType(schema, value)) return [typeError(path, schema.type)];
	const errors: ValidationError[] = [];
	if (schema.type === 'string' && schema.enum && !schema.enum.includes(value as string)) {
		errors.push({
			path,
			message: `must be equal to one of the allowed values: ${schema.enum.join(', ')}`,
			errorCode: 'enum.openapi.validation',
		});
	}
	if (schema.type === 'object') {
		const object = value as Record<string, unknown>;
		for (const name of schema.required ?? []) {
			if (object[name] === undefined) {
				errors.push({
					path: `${path}.${name}`,
					message: `must have required property '${name}'`,
					errorCode: 'required.openapi.validation',
				});
			}
		}
		for (const [name, propertySchema] of Object.entries(schema.properties ?? {})) {
			if (object[name] !== undefined)
				errors.push(...validate(propertySchema, object[name], `${path}.${name}`));
		}
	}
	if (schema.type === 'array' && schema.items) {
		const items = value as unknown[];
		for (let i = 0; i < items.length; i++)
			errors.push(...validate(schema.items, items[i], `${path}[${i}]`));
	}
	return errors;
}
