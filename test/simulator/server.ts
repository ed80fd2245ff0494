/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports
	-- test tooling runs in Node, outside n8n's sandbox */
/**
 * The two listeners and the request pipeline of the API listener (order of checks as in test/simulator/README.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { handleControl, isControlPath } from './control';
import { DocumentStore } from './downloads';
import { alterAnswer, shapeAnswer } from './answers';
import {
	ANSWER_CHANGE_KINDS,
	faultResponse,
	FaultInjector,
	PASS_THROUGH_KINDS,
	WIRE_FAULT_KINDS,
	type Fault,
} from './faults';
import {
	BurstLimiter,
	FORBIDDEN,
	INTERNAL_ERROR,
	LIMIT_EXCEEDED,
	MISSING_TOKEN,
	QuotaCounter,
	TIMED_OUT,
	TOO_LONG,
	matchRoute,
} from './gateway';
import {
	apiError,
	headerValue,
	isRecord,
	parseJson,
	readBody,
	sendJson,
	sendBroken,
	sendOversized,
	sendTrickled,
	type ApiResult,
} from './http';
import { authorize, keyProfile } from './keys';
import { GATEWAY_TIMEOUT_MS, Sleeper, modelledMs } from './latency';
import { PortfolioStore } from './portfolios';
import { TemperatureLocks, routeTable, type RouteDefinition, type RouteServices } from './routes';
import type {
	AnswerShape,
	LatencyTable,
	RecordedRequest,
	RequestFilter,
	Simulator,
	SimulatorOptions,
} from './types';
import { SCHEMA_ERROR_MESSAGE, validate } from './validation';

export const HOST = '127.0.0.1';
export const DEFAULT_MONTHLY_QUOTA = 10000;
export const DEFAULT_REPORT_LINK_TTL_MS = 300000;

function holdingsCount(body: unknown): number {
	return isRecord(body) && Array.isArray(body.holdings) ? body.holdings.length : 0;
}

/** The host name of a Host header (no port), 127.0.0.1 when absent or unreadable. */
function hostnameOf(host: string | null): string {
	try {
		return host ? new URL(`http://${host}`).hostname : HOST;
	} catch {
		return HOST;
	}
}

function matches(request: RecordedRequest, filter: RequestFilter | undefined): boolean {
	if (filter?.route !== undefined && request.route !== filter.route) return false;
	if (filter?.key !== undefined && request.key !== filter.key) return false;
	return true;
}

function listen(server: Server, port: number): Promise<string> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, HOST, () => {
			server.off('error', reject);
			resolve(`http://${HOST}:${(server.address() as AddressInfo).port}`);
		});
	});
}

function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		server.close(() => resolve());
		server.closeAllConnections();
	});
}

class SimulatorCore {
	private readonly routes: RouteDefinition[];
	private readonly recorded: RecordedRequest[] = [];
	private readonly faults = new FaultInjector();
	private readonly burst: BurstLimiter;
	private readonly quota: QuotaCounter;
	private readonly sleeper = new Sleeper();
	private readonly documents: DocumentStore;
	private readonly services: RouteServices;
	private readonly now: () => Date;
	private readonly timeScale: number;
	private latency: LatencyTable;
	private closed = false;
	private readonly apiServer: Server;
	private readonly downloadServer: Server;
	private simulator: Simulator | null = null;
	private answerShape: AnswerShape;

	constructor(private readonly options: SimulatorOptions) {
		this.routes = routeTable(options.temperatureRoute ?? false);
		this.burst = new BurstLimiter(options.burstLimit);
		this.quota = new QuotaCounter(options.monthlyQuota ?? DEFAULT_MONTHLY_QUOTA);
		this.documents = new DocumentStore(options.reportLinkTtlMs ?? DEFAULT_REPORT_LINK_TTL_MS);
		this.services = {
			portfolios: new PortfolioStore(),
			documents: this.documents,
			temperatureLocks: new TemperatureLocks(options.temperatureLockRequests ?? 1),
			methodologiesShape: options.methodologiesShape ?? 'records',
			dataVersion: options.dataVersion ?? 1,
		};
		this.answerShape = { ...options.answerShape };
		this.now = options.now ?? (() => new Date());
		this.timeScale = options.timeScale ?? 1;
		this.latency = { ...options.latency };
		this.apiServer = createServer((req, res) => void this.handleApi(req, res));
		this.downloadServer = createServer((req, res) => {
			this.documents.handle(req, res);
			if (this.options.log)
				process.stderr.write(`[sim download] ${req.method} ${req.url} -> ${res.statusCode}\n`);
		});
	}

	async start(): Promise<Simulator> {
		const url = await listen(this.apiServer, this.options.port ?? 0);
		const downloadUrl = await listen(this.downloadServer, this.options.downloadPort ?? 0);
		this.documents.baseUrl = downloadUrl;
		this.simulator = {
			url,
			downloadUrl,
			close: () => this.close(),
			reset: () => this.reset(),
			setFaults: (route, spec) => this.faults.set(route, spec),
			setBurstLimit: (limit) => this.burst.setLimit(limit),
			setMonthlyQuota: (quota) => this.quota.setQuota(quota),
			setDataVersion: (version) => {
				this.services.dataVersion = version;
			},
			setAnswerShape: (shape) => {
				this.answerShape = { ...shape };
			},
			setLatency: (latency) => {
				this.latency = { ...latency };
			},
			requestCount: (filter) => this.recorded.filter((request) => matches(request, filter)).length,
			requests: (filter) =>
				this.recorded
					.filter((request) => matches(request, filter))
					.map((request) => ({ ...request, headers: { ...request.headers } })),
			downloads: () => this.documents.downloads(),
			setDownloadFaults: (sequence, options) => this.documents.setFaults(sequence, options),
			setReportLink: (template) => this.documents.setReportLink(template),
			portfolioState: (org) => this.services.portfolios.state(org, this.now()),
		};
		return this.simulator;
	}

	private reset(): void {
		this.recorded.length = 0;
		this.faults.reset();
		this.burst.reset();
		this.quota.reset();
		this.documents.reset();
		this.services.portfolios.reset();
		this.services.temperatureLocks.reset();
		this.services.dataVersion = this.options.dataVersion ?? 1;
		this.answerShape = { ...this.options.answerShape };
	}

	private async close(): Promise<void> {
		if (this.closed) return;
		this.closed = true;
		this.sleeper.wakeAll();
		await Promise.all([closeServer(this.apiServer), closeServer(this.downloadServer)]);
	}

	private async handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const url = new URL(req.url ?? '/', `http://${HOST}`);
		if (isControlPath(url.pathname) && this.simulator) {
			await handleControl(this.simulator, req, res, url);
			return;
		}
		const record: RecordedRequest = {
			route: null,
			method: req.method ?? '',
			path: url.pathname,
			key: headerValue(req, 'x-api-key'),
			status: 0,
			body: null,
			headers: { ...req.headers },
			fault: null,
			at: Date.now(),
		};
		this.recorded.push(record);
		let outcome: ApiResult | 'drop';
		let fault: Fault | null = null;
		try {
			outcome = await this.process(req, url, record, (applied) => {
				fault = applied;
			});
		} catch (error) {
			process.stderr.write(
				`[sim] ${record.method} ${record.path} failed: ${error instanceof Error ? error.stack : String(error)}\n`,
			);
			outcome = INTERNAL_ERROR();
		}
		if (outcome === 'drop') {
			req.socket.destroy();
		} else {
			record.status = outcome.status;
			if (!this.closed && !res.destroyed) this.sendAnswer(res, outcome, fault);
		}
		if (this.options.log) {
			const fault = record.fault ? ` fault=${record.fault}` : '';
			process.stderr.write(
				`[sim] ${record.method} ${record.path} key=${record.key ?? '-'} -> ${record.status || 'dropped'}${fault}\n`,
			);
		}
	}

	/** The answer as the fault sends it: a byte at a time (`trickle`), streamed far past any cap, or whole. */
	private sendAnswer(res: ServerResponse, outcome: ApiResult, fault: Fault | null): void {
		if (fault && WIRE_FAULT_KINDS.includes(fault.kind))
			sendBroken(res, outcome, fault.kind as Parameters<typeof sendBroken>[2]);
		else if (fault?.kind === 'trickle') sendTrickled(res, outcome, fault.trickleMs);
		else if (fault?.kind === 'oversized-answer' || fault?.kind === 'oversized-answer-unannounced')
			void sendOversized(res, fault.kind === 'oversized-answer');
		else sendJson(res, outcome);
	}

	/** The checks of every API request, in order; 'drop' = close the connection without answering. */
	private async process(
		req: IncomingMessage,
		url: URL,
		record: RecordedRequest,
		applied: (fault: Fault) => void,
	): Promise<ApiResult | 'drop'> {
		const body = await readBody(req);
		const parsed = parseJson(body.buffer);
		record.body = parsed.ok ? (parsed.value ?? null) : null;

		// 1. Route table.
		const match = matchRoute(this.routes, record.method, url.pathname);
		if (!match) return MISSING_TOKEN();
		const route = match.route;
		record.route = route.key;

		// 2. Gateway key check; every request past it counts against the monthly quota.
		const profile = keyProfile(record.key);
		if (!profile) return FORBIDDEN();
		const used = this.quota.consume(profile.key, this.now());

		// 3. Body size.
		if (body.buffer === null) return TOO_LONG();

		// 4. Short-burst limit.
		const throttled = this.burst.check(profile.key, Date.now());
		if (throttled) return throttled;

		// 5. Monthly quota.
		if (used > this.quota.limitFor(profile)) return LIMIT_EXCEEDED();

		// 6. Fault injection.
		const fault = this.faults.next(route.key);
		if (fault) {
			record.fault = fault.kind;
			applied(fault);
			if (fault.kind === 'drop') return 'drop';
			if (fault.kind === 'slow') await this.sleeper.sleep(fault.slowMs);
			else if (!PASS_THROUGH_KINDS.includes(fault.kind)) {
				return faultResponse(
					fault.kind,
					`${this.documents.baseUrl}/moved${url.pathname}`,
					record.headers,
					route.key,
				);
			}
		}

		// 7. Latency model and the gateway timeout.
		const modelled = modelledMs(this.latency, route.key, holdingsCount(record.body));
		await this.sleeper.sleep(Math.min(modelled, GATEWAY_TIMEOUT_MS) * this.timeScale);
		if (modelled > GATEWAY_TIMEOUT_MS) return TIMED_OUT();

		// 8. API key checks and data family.
		const access = authorize(profile, route.family);
		if (!('org' in access)) return access;

		// 9. Body parsing and schema.
		let validBody: Record<string, unknown> = {};
		if (route.schema) {
			if (!parsed.ok) {
				return apiError(400, SCHEMA_ERROR_MESSAGE, [
					{
						path: '.body',
						message: `must be valid JSON: ${parsed.error}`,
						errorCode: 'parse.openapi.validation',
					},
				]);
			}
			const value = parsed.value ?? {};
			const errors = validate(route.schema, value);
			if (errors.length > 0) return apiError(400, SCHEMA_ERROR_MESSAGE, errors);
			validBody = value as Record<string, unknown>;
		}

		// 10. Route logic. `processed-drop`: carried out (state, reports, quota), then the connection is dropped unanswered.
		const handled = await route.handle({
			services: this.services,
			org: access.org,
			key: profile.key,
			body: validBody,
			params: match.params,
			now: this.now(),
			requestHost: hostnameOf(headerValue(req, 'host')),
		});
		const { dataVersion } = this.services;
		let answer = shapeAnswer(this.answerShape, route.key, handled, dataVersion, validBody);
		if (fault && ANSWER_CHANGE_KINDS.includes(fault.kind)) {
			answer = alterAnswer(fault.kind, route.key, answer, {
				shape: this.answerShape,
				dataVersion,
				body: validBody,
			});
		}
		if (fault?.kind === 'processed-drop') return 'drop';
		if (fault?.kind === 'echo-key-success' && isRecord(answer.body)) {
			// Quoted in the body and in the success message a node outputs (metadata.message).
			const metadata = isRecord(answer.body.metadata) ? answer.body.metadata : undefined;
			const quoted =
				metadata && typeof metadata.message === 'string'
					? {
							metadata: {
								...metadata,
								message: `${metadata.message} (request key ${record.key ?? ''})`,
							},
						}
					: {};
			return { ...answer, body: { ...answer.body, ...quoted, echo: { headers: record.headers } } };
		}
		return answer;
	}
}

export function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	return new SimulatorCore(options).start();
}
