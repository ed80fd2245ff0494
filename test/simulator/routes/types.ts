/**
 * Shapes shared by the route modules.
 */
import type { DocumentStore } from '../downloads';
import type { RoutePattern } from '../gateway';
import type { ApiResult } from '../http';
import type { Family } from '../keys';
import type { PortfolioStore } from '../portfolios';
import type { DataVersion } from '../data';
import type { MethodologiesShape } from '../types';
import type { Schema } from '../validation';
import type { TemperatureLocks } from './temperature';

export interface RouteServices {
	portfolios: PortfolioStore;
	documents: DocumentStore;
	temperatureLocks: TemperatureLocks;
	methodologiesShape: MethodologiesShape;
	/** The edition of the instrument data the instruments routes answer from (setDataVersion). */
	dataVersion: DataVersion;
}

export interface RouteContext {
	services: RouteServices;
	/** Organization of the calling key. */
	org: string;
	key: string;
	/** The validated JSON body ({} for GET routes and empty bodies). */
	body: Record<string, unknown>;
	/** Decoded path parameters. */
	params: Record<string, string>;
	now: Date;
	/** Host name the client addressed the API by (Host header, no port). */
	requestHost: string;
}

export interface RouteDefinition extends RoutePattern {
	/** Data family the organization needs; null = any valid key. */
	family: Family | null;
	/** Body schema; null = the body is ignored. */
	schema: Schema | null;
	handle(context: RouteContext): ApiResult;
}
