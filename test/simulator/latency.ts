/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Latency model: modelled server time per route, scaled into real sleeps, with the gateway's 29 s timeout.
 */
import type { LatencyTable, RouteKey } from './types';

export const GATEWAY_TIMEOUT_MS = 29000;

/** baseMs + perHoldingMs * holdings, from the route's entry or else 'default'; 0 without either. */
export function modelledMs(table: LatencyTable, route: RouteKey, holdings: number): number {
	const model = table[route] ?? table.default;
	if (!model) return 0;
	return model.baseMs + model.perHoldingMs * holdings;
}

/** Sleeps that can all be cut short when the simulator closes. */
export class Sleeper {
	private readonly pending = new Map<NodeJS.Timeout, () => void>();

	sleep(ms: number): Promise<void> {
		if (ms <= 0) return Promise.resolve();
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.pending.delete(timer);
				resolve();
			}, ms);
			this.pending.set(timer, resolve);
		});
	}

	wakeAll(): void {
		for (const [timer, resolve] of this.pending) {
			clearTimeout(timer);
			resolve();
		}
		this.pending.clear();
	}
}
