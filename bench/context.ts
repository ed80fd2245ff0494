import type { SectionResult } from './report';
import type { ChildSimulator } from './sim';

export interface BenchContext {
	quick: boolean;
	/** The command that reproduces one section (with --quick when this run is quick). */
	command(section: string): string;
	log(message: string): void;
	/** A fresh simulator in a child process, closed when the section ends. */
	simulator(options?: Parameters<typeof ChildSimulator.start>[0]): Promise<ChildSimulator>;
}

export interface Section {
	id: string;
	title: string;
	run(context: BenchContext): Promise<SectionResult>;
}
