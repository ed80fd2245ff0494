/**
 * Every problem of an input, found in one pass before any request and given in one error: a whole column that is
 * missing or empty once, then the rows, each with its fix (a fix said once however many rows need it).
 */
import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { TITLE_LIMIT, inputError, sentenceStart, shortened } from '../api/errors';
import { countOf } from '../base/values';

export interface InputProblem {
	/** The item the problem is in (for a column: its first row's item). */
	itemIndex: number;
	/** How the problem names its row: "Item 4", "Item 0, 3rd holding of Holdings (JSON)"; none for a column. */
	where?: string;
	/** What is wrong, lower case unless it starts with a name: "invalid ISIN: …", "The Weight % column is empty …". */
	message: string;
	fix?: string;
}

/** Problems listed in the description; the rest are counted, naming their items. */
const MAX_LISTED = 30;

/**
 * What the title says of the problem's place beyond the item n8n names itself (it adds "[item N]" to the title of an
 * error with an item index): "3rd holding of Holdings (JSON)" of "Item 0, 3rd holding of Holdings (JSON)", '' for
 * "Item 0".
 */
function beyondItem({ where, itemIndex }: InputProblem): string {
	if (!where || where === `Item ${itemIndex}`) return '';
	const prefix = `Item ${itemIndex}, `;
	return where.startsWith(prefix) ? where.slice(prefix.length) : where;
}

/** A problem as a line of the list: its place, what is wrong. */
function line(problem: InputProblem): string {
	return problem.where ? `${problem.where}: ${problem.message}` : sentenceStart(problem.message);
}

/**
 * The one error for the problems of an input (at least one), thrown before any request. One problem of one row is the
 * usual input error (inputError); a whole column, or more than one problem, gives a short title (the first problem
 * and how many there are, at most 150 characters, the item said once by n8n) and the full list with each fix in the
 * description.
 */
export function inputProblemsError(node: INode, problems: InputProblem[]): NodeOperationError {
	const error = problemsError(node, problems);
	listed.set(error, problems);
	return error;
}

/** The problems each error of inputProblemsError stands for, so that the errors of several groups make one. */
const listed = new WeakMap<object, InputProblem[]>();

/**
 * One error for the input errors of several groups (Group By), each read before any request: their problems in
 * group order, a column's problem saying its group. An error that is no list of problems is one problem.
 */
export function groupsInputError(
	node: INode,
	failed: Array<{ error: NodeOperationError; group?: string }>,
): NodeOperationError {
	const problems = failed.flatMap(({ error, group }) =>
		(listed.get(error) ?? [problemOfError(error)]).map((problem) =>
			group && !problem.where ? { ...problem, message: `${problem.message} (${group})` } : problem,
		),
	);
	return inputProblemsError(node, problems);
}

/** An input error as one problem: a message that starts with its item's name ("Item 3: …") keeps it as its place. */
function problemOfError(error: NodeOperationError): InputProblem {
	const description = typeof error.description === 'string' ? error.description : '';
	const fix = description.replace(/\s*(Nothing|This request) was (not )?sent\.$/, '');
	const context = error.context.itemIndex;
	const itemIndex = typeof context === 'number' ? context : 0;
	const named = new RegExp(`^(Item ${itemIndex}(?:, [^:]+)?): (.+)$`, 's').exec(error.message);
	// inputError's title leaves the item to n8n ("[item N]"); in a list of several, each line names its item.
	const where = named?.[1] ?? (typeof context === 'number' ? `Item ${context}` : undefined);
	return {
		itemIndex,
		...(where ? { where } : {}),
		message: named?.[2] ?? error.message,
		...(fix ? { fix } : {}),
	};
}

function problemsError(node: INode, problems: InputProblem[]): NodeOperationError {
	const [first] = problems;
	if (problems.length === 1 && first.where)
		return inputError(node, first.itemIndex, first.message, first.fix, { where: first.where });
	const place = beyondItem(first);
	const firstText = place ? `${place}: ${first.message}` : first.message;
	const title =
		problems.length === 1
			? shortened(sentenceStart(firstText), TITLE_LIMIT)
			: shortened(`${problems.length} problems in the input; the first: ${firstText}`, TITLE_LIMIT);

	const fixes = new Set<string>();
	const lines = problems.slice(0, MAX_LISTED).map((problem) => {
		const fix = problem.fix && !fixes.has(problem.fix) ? problem.fix : undefined;
		if (fix) fixes.add(fix);
		return `- ${line(problem)}${fix ? ` → ${fix}` : ''}`;
	});
	const rest = problems.slice(MAX_LISTED);
	if (rest.length) {
		const items = [...new Set(rest.map((problem) => problem.itemIndex))];
		lines.push(
			`- and ${countOf(rest.length, 'more problem')} in ${items.length === 1 ? 'item' : 'items'} ${shortened(items.join(', '), 200)}`,
		);
	}
	const heading =
		problems.length === 1
			? 'Nothing was sent.'
			: `Nothing was sent. All ${problems.length} problems, found in one pass over the input:`;
	return new NodeOperationError(node, title, {
		itemIndex: first.itemIndex,
		description: `${heading}\n${lines.join('\n')}`,
	});
}
