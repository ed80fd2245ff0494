process.env.N8N_USER_FOLDER = require('fs').mkdtempSync('/tmp/n8n-smoke-');
console.time('import');
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runWorkflow, PACKAGE_NAME } from '/work/main/test/workflow/runner';
import { EchoHttp } from '/work/main/test/workflow/fixtures/EchoHttp.node';
console.timeEnd('import');
(async () => {
	const server = createServer((req, res) => {
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify({ url: req.url, headers: req.headers }));
	});
	await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address() as AddressInfo;
	console.log('running');
	const result = await runWorkflow(
		{
			nodes: [
				{ id: '1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: '2', name: 'Echo', type: `${PACKAGE_NAME}.echoHttp`, typeVersion: 1, position: [200, 0], parameters: { binaryPropertyName: 'data' }, credentials: { sustainabilityComplianceApi: { id: 'x', name: 'y' } } },
			],
			connections: { Start: { main: [[{ node: 'Echo', type: 'main', index: 0 }]] } },
		},
		{ timeoutMs: 10000, credentials: { sustainabilityComplianceApi: { apiKey: 'k1', baseUrl: `http://127.0.0.1:${port}` } }, nodeTypes: { [`${PACKAGE_NAME}.echoHttp`]: new EchoHttp() } },
	);
	server.close();
	console.log(result.status, result.error, JSON.stringify(result.outputs, null, 1).slice(0, 1500), result.warnings, result.standIns, result.realNodes);
	console.log((await result.binary('Echo')).toString());
})().catch((e) => { console.error('FAILED', e); process.exit(1); });
