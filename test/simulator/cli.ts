/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test tooling runs in Node, outside n8n's sandbox */
/**
 * Starts the simulator until SIGINT/SIGTERM:
 *   ts-node --transpile-only test/simulator/cli.ts --port 4010 [--download-port N] [--temperature-route]
 *     [--burst R/windowMs] [--time-scale x] [--quota N] [--lock-requests N] [--link-ttl ms]
 *     [--answer-shape temperature=top-level,measures=vendor,involvements=extended] [--log]
 */
import { parseAnswerShape } from './answers';
import { findIsins } from './data';
import { KEY_PROFILES } from './keys';
import { ALL_ROUTES } from './routes';
import { startSimulator } from './server';
import type { SimulatorOptions } from './types';

const USAGE =
	'Usage: cli.ts [--port N] [--download-port N] [--temperature-route] [--burst R/windowMs] [--time-scale x] ' +
	'[--quota N] [--lock-requests N] [--link-ttl ms] [--answer-shape temperature=top-level,measures=vendor,involvements=extended] [--log]';

function fail(message: string): never {
	process.stderr.write(`${message}\n${USAGE}\n`);
	process.exit(2);
}

function numberArg(flag: string, value: string | undefined): number {
	const parsed = Number(value);
	if (value === undefined || !Number.isFinite(parsed)) fail(`${flag} needs a number`);
	return parsed;
}

export function parseArgs(argv: readonly string[]): SimulatorOptions {
	const options: SimulatorOptions = {};
	for (let i = 0; i < argv.length; i++) {
		const flag = argv[i];
		switch (flag) {
			case '--port':
				options.port = numberArg(flag, argv[++i]);
				break;
			case '--download-port':
				options.downloadPort = numberArg(flag, argv[++i]);
				break;
			case '--temperature-route':
				options.temperatureRoute = true;
				break;
			case '--burst': {
				const match = /^(\d+)\/(\d+)$/.exec(argv[++i] ?? '');
				if (!match) fail('--burst needs R/windowMs, e.g. 5/1000');
				options.burstLimit = { requests: Number(match[1]), windowMs: Number(match[2]) };
				break;
			}
			case '--time-scale':
				options.timeScale = numberArg(flag, argv[++i]);
				break;
			case '--quota':
				options.monthlyQuota = numberArg(flag, argv[++i]);
				break;
			case '--lock-requests':
				options.temperatureLockRequests = numberArg(flag, argv[++i]);
				break;
			case '--link-ttl':
				options.reportLinkTtlMs = numberArg(flag, argv[++i]);
				break;
			case '--answer-shape': {
				const value = argv[++i];
				if (value === undefined) fail('--answer-shape needs field=value[,field=value]');
				try {
					options.answerShape = parseAnswerShape(value);
				} catch (error) {
					fail(`--answer-shape: ${error instanceof Error ? error.message : String(error)}`);
				}
				break;
			}
			case '--log':
				options.log = true;
				break;
			case '--help':
				process.stdout.write(`${USAGE}\n`);
				process.exit(0);
				break;
			default:
				fail(`Unknown argument: ${flag}`);
		}
	}
	return options;
}

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const simulator = await startSimulator(options);
	const [company] = findIsins((data) => data.known && !data.isFund);
	const [fund] = findIsins((data) => data.isFund);
	const [unknown] = findIsins((data) => !data.known);
	const routes = ALL_ROUTES.filter(
		(route) => options.temperatureRoute || route.family !== 'temperature',
	);
	const lines = [
		`Simulator listening at ${simulator.url}`,
		`Report downloads at ${simulator.downloadUrl}`,
		'',
		'Keys (header x-api-key):',
		...Object.values(KEY_PROFILES).map(
			(profile) =>
				`  ${profile.key.padEnd(20)} ${(profile.organization ?? '-').padEnd(6)} ${profile.description}`,
		),
		'  anything else        -      gateway 403 Forbidden',
		'',
		'Routes:',
		...routes.map((route) => `  ${route.key}`),
		'',
		`Sample ISINs: company ${company}, fund ${fund}, unknown ${unknown}`,
		`Control surface: ${simulator.url}/__sim/{health,stats,requests,downloads,portfolios,reset,faults,burst,latency,answer-shape}`,
		'',
	];
	process.stdout.write(lines.join('\n'));
	const stop = () => {
		void simulator.close().then(() => process.exit(0));
	};
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

if (require.main === module) {
	main().catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
		process.exit(1);
	});
}
