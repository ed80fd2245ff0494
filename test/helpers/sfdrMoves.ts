import { instrumentData } from '../simulator';

export interface SfdrMove {
	isin: string;
	name?: string;
	from: 6 | 8 | 9 | null;
	to: 6 | 8 | 9 | null;
}

/**
 * Worked out independently of the node, from the simulator's data: the holdings whose SFDR class differs between data
 * version 1 and the later edition (version 2), in input order, and among them those that went down a class.
 */
export function sfdrMoves(rows: Array<Record<string, string>>): {
	changed: SfdrMove[];
	downgraded: SfdrMove[];
} {
	const changed = rows
		.map((row) => ({
			isin: row.ISIN,
			name: row.Name,
			from: instrumentData(row.ISIN, 1).sfdr,
			to: instrumentData(row.ISIN, 2).sfdr,
		}))
		.filter((move) => move.from !== move.to);
	const downgraded = changed.filter(
		(move) => move.from !== null && move.to !== null && move.to < move.from,
	);
	return { changed, downgraded };
}
