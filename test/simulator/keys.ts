/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- simulator API keys are test values */
/**
 * Demo API keys, organizations and data families, and the API-level key checks.
 */
import { apiError, type ApiResult } from './http';

export type Family = 'sfdr' | 'esg' | 'sustainable-investments' | 'taxonomy' | 'temperature';

const ALL_FAMILIES: readonly Family[] = [
	'sfdr',
	'esg',
	'sustainable-investments',
	'taxonomy',
	'temperature',
];

export const SIM_KEYS = {
	allFamilies: 'sim-all-families',
	allFamilies2: 'sim-all-families-2',
	esgOnly: 'sim-esg-only',
	disabled: 'sim-disabled',
	gatewayOnly: 'sim-gateway-only',
	quota5: 'sim-quota-5',
} as const;

export type SimKey = (typeof SIM_KEYS)[keyof typeof SIM_KEYS];

export interface KeyProfile {
	key: SimKey;
	/** null: the gateway accepts the key but the API does not know it. */
	organization: string | null;
	families: readonly Family[];
	active: boolean;
	/** Fixed monthly quota; undefined = the simulator's `monthlyQuota`. */
	monthlyQuota?: number;
	description: string;
}

export const KEY_PROFILES: Record<SimKey, KeyProfile> = {
	'sim-all-families': {
		key: 'sim-all-families',
		organization: 'org-a',
		families: ALL_FAMILIES,
		active: true,
		description: 'every family enabled',
	},
	'sim-all-families-2': {
		key: 'sim-all-families-2',
		organization: 'org-a',
		families: ALL_FAMILIES,
		active: true,
		description: "second key of org-a (shares org-a's portfolios)",
	},
	'sim-esg-only': {
		key: 'sim-esg-only',
		organization: 'org-b',
		families: ['esg'],
		active: true,
		description: 'only the ESG family',
	},
	'sim-disabled': {
		key: 'sim-disabled',
		organization: 'org-a',
		families: ALL_FAMILIES,
		active: false,
		description: '403 You must provide an active API key',
	},
	'sim-gateway-only': {
		key: 'sim-gateway-only',
		organization: null,
		families: [],
		active: true,
		description: 'passes the gateway, 403 You must provide a valid API key',
	},
	'sim-quota-5': {
		key: 'sim-quota-5',
		organization: 'org-c',
		families: ALL_FAMILIES,
		active: true,
		monthlyQuota: 5,
		description: 'all families, 5 requests per month',
	},
};

/** Number of members per organization (data.members of GET /portfolios). */
export const ORGANIZATION_MEMBERS: Record<string, number> = {
	'org-a': 3,
	'org-b': 1,
	'org-c': 1,
};

export function keyProfile(key: string | null): KeyProfile | undefined {
	if (key === null || !Object.prototype.hasOwnProperty.call(KEY_PROFILES, key)) return undefined;
	return KEY_PROFILES[key as SimKey];
}

export const INVALID_KEY_MESSAGE = 'You must provide a valid API key';
export const INACTIVE_KEY_MESSAGE = 'You must provide an active API key';
export const NO_FRAMEWORK_MESSAGE = "You don't have access to any of the frameworks requested.";

/** API-level check of a key that passed the gateway: its organization, or the 403 to answer. */
export function authorize(profile: KeyProfile, family: Family | null): { org: string } | ApiResult {
	if (profile.organization === null) return apiError(403, INVALID_KEY_MESSAGE);
	if (!profile.active) return apiError(403, INACTIVE_KEY_MESSAGE);
	if (family !== null && !profile.families.includes(family))
		return apiError(403, NO_FRAMEWORK_MESSAGE);
	return { org: profile.organization };
}
