/**
 * TEST-ONLY STAND-IN for n8n's core node `n8n-nodes-base.scheduleTrigger` (Schedule Trigger v1–1.3).
 * Used by the workflow test harness (test/workflow/runner.ts) when no real n8n-nodes-base install is
 * available.
 *
 * Subset implemented: the manual run only ("Execute workflow" in the editor), which is how the
 * harness runs workflows. Like the real node it then emits ONE item describing "now" in the
 * workflow's timezone: timestamp, 'Readable date', 'Readable time', 'Day of week', Year, Month,
 * 'Day of month', Hour, Minute, Second, Timezone. The `rule.interval[]` parameters are declared
 * with the real node's names (field, secondsInterval, minutesInterval, hoursInterval,
 * daysInterval, weeksInterval, monthsInterval, triggerAtDayOfMonth, triggerAtDay, triggerAtHour,
 * triggerAtMinute, expression) so that a workflow JSON keeps them, but no schedule is ever
 * registered: in any non-manual mode the stand-in emits nothing.
 */
import type {
	IDataObject,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

const intervalValues: INodeProperties[] = [
	{
		displayName: 'Trigger Interval',
		name: 'field',
		type: 'options',
		default: 'days',
		options: [
			{ name: 'Seconds', value: 'seconds' },
			{ name: 'Minutes', value: 'minutes' },
			{ name: 'Hours', value: 'hours' },
			{ name: 'Days', value: 'days' },
			{ name: 'Weeks', value: 'weeks' },
			{ name: 'Months', value: 'months' },
			{ name: 'Custom (Cron)', value: 'cronExpression' },
		],
	},
	{
		displayName: 'Seconds Between Triggers',
		name: 'secondsInterval',
		type: 'number',
		default: 30,
		displayOptions: { show: { field: ['seconds'] } },
	},
	{
		displayName: 'Minutes Between Triggers',
		name: 'minutesInterval',
		type: 'number',
		default: 5,
		displayOptions: { show: { field: ['minutes'] } },
	},
	{
		displayName: 'Hours Between Triggers',
		name: 'hoursInterval',
		type: 'number',
		default: 1,
		displayOptions: { show: { field: ['hours'] } },
	},
	{
		displayName: 'Days Between Triggers',
		name: 'daysInterval',
		type: 'number',
		default: 1,
		displayOptions: { show: { field: ['days'] } },
	},
	{
		displayName: 'Weeks Between Triggers',
		name: 'weeksInterval',
		type: 'number',
		default: 1,
		displayOptions: { show: { field: ['weeks'] } },
	},
	{
		displayName: 'Months Between Triggers',
		name: 'monthsInterval',
		type: 'number',
		default: 1,
		displayOptions: { show: { field: ['months'] } },
	},
	{
		displayName: 'Trigger at Day of Month',
		name: 'triggerAtDayOfMonth',
		type: 'number',
		default: 1,
		displayOptions: { show: { field: ['months'] } },
	},
	{
		displayName: 'Trigger on Weekdays',
		name: 'triggerAtDay',
		type: 'multiOptions',
		default: [0],
		displayOptions: { show: { field: ['weeks'] } },
		options: [
			{ name: 'Monday', value: 1 },
			{ name: 'Tuesday', value: 2 },
			{ name: 'Wednesday', value: 3 },
			{ name: 'Thursday', value: 4 },
			{ name: 'Friday', value: 5 },
			{ name: 'Saturday', value: 6 },
			{ name: 'Sunday', value: 0 },
		],
	},
	{
		displayName: 'Trigger at Hour',
		name: 'triggerAtHour',
		type: 'options',
		default: 0,
		displayOptions: { show: { field: ['days', 'weeks', 'months'] } },
		options: Array.from({ length: 24 }, (_, hour) => ({ name: `${hour}h`, value: hour })),
	},
	{
		displayName: 'Trigger at Minute',
		name: 'triggerAtMinute',
		type: 'number',
		default: 0,
		displayOptions: { show: { field: ['hours', 'days', 'weeks', 'months'] } },
	},
	{
		displayName: 'Expression',
		name: 'expression',
		type: 'string',
		default: '',
		displayOptions: { show: { field: ['cronExpression'] } },
	},
];

function part(parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes): string {
	return parts.find((p) => p.type === type)?.value ?? '';
}

function ordinal(day: number): string {
	const mod100 = day % 100;
	if (mod100 >= 11 && mod100 <= 13) return `${day}th`;
	return `${day}${['th', 'st', 'nd', 'rd'][day % 10] ?? 'th'}`;
}

/** The item the real node emits (it formats with moment-timezone; same fields and formats here). */
export function scheduleTriggerItem(timezone: string, now = new Date()): IDataObject {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone: timezone,
		year: 'numeric',
		month: 'long',
		day: '2-digit',
		weekday: 'long',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
		hourCycle: 'h23',
		timeZoneName: 'longOffset',
	}).formatToParts(now);
	const numeric = new Intl.DateTimeFormat('en-US', {
		timeZone: timezone,
		month: '2-digit',
	}).formatToParts(now);
	const year = part(parts, 'year');
	const hour = part(parts, 'hour');
	const minute = part(parts, 'minute');
	const second = part(parts, 'second');
	const day = part(parts, 'day');
	const gmt = part(parts, 'timeZoneName'); // "GMT+02:00" or "GMT"
	const offset = gmt === 'GMT' ? '+00:00' : gmt.replace('GMT', '');
	const hour12 = Number(hour) % 12 === 0 ? 12 : Number(hour) % 12;
	const ampm = Number(hour) < 12 ? 'am' : 'pm';
	const millis = String(now.getMilliseconds()).padStart(3, '0');
	return {
		timestamp: `${year}-${part(numeric, 'month')}-${day}T${hour}:${minute}:${second}.${millis}${offset}`,
		'Readable date': `${part(parts, 'month')} ${ordinal(Number(day))} ${year}, ${hour12}:${minute}:${second} ${ampm}`,
		'Readable time': `${hour12}:${minute}:${second} ${ampm}`,
		'Day of week': part(parts, 'weekday'),
		Year: year,
		Month: part(parts, 'month'),
		'Day of month': day,
		Hour: hour,
		Minute: minute,
		Second: second,
		Timezone: `${timezone} (UTC${offset})`,
	};
}

export class ScheduleTriggerStandIn implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Schedule Trigger',
		name: 'scheduleTrigger',
		icon: 'fa:clock',
		group: ['trigger', 'schedule'],
		version: [1, 1.1, 1.2, 1.3],
		description: 'Triggers the workflow on a given schedule (test-only stand-in: manual runs only)',
		eventTriggerDescription: '',
		defaults: { name: 'Schedule Trigger', color: '#31C49F' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{
				displayName: 'This workflow will run on the schedule you define here once you activate it.',
				name: 'notice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger Rules',
				name: 'rule',
				placeholder: 'Add Rule',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: { interval: [{ field: 'days' }] },
				options: [{ name: 'interval', displayName: 'Trigger Interval', values: intervalValues }],
			},
		],
	};

	async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
		const timezone = this.getTimezone();
		if (this.getMode() !== 'manual') {
			// The stand-in never schedules anything.
			return {};
		}
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([scheduleTriggerItem(timezone)])]);
		};
		return { manualTriggerFunction };
	}
}
