// `assay decon report` (also `assay decon-report`): the contamination report of decon attributes, printed and saved beside them.
import { segmentProblem } from '../../../shared/segment.js';
import { formatDeconReport, indexTokenLookup, runDeconReport } from '../decon/report/index.js';
import { listOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import { openForCli } from './preview.js';
import { stderrLine } from './stderr.js';

export async function deconReportCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`decon report takes no positional arguments (got '${args.positionals[0]}'): name the documents with --documents`);
  const documents = listOption(args, 'documents');
  const name = stringOption(args, 'name');
  if (!documents?.length || name === undefined) throw new UsageError('decon report needs --documents GLOB… and --name NAME (the decon name: <NAME>__decon__overlap)');
  const bad = segmentProblem(name);
  if (bad !== null) throw new UsageError(`--name ${bad}`);
  const root = stringOption(args, 'index');
  const engine = root === undefined ? null : openForCli(root);
  try {
    const { report, written } = await runDeconReport({ documents, name, signal, log: stderrLine, ...(engine && root !== undefined && { tokens: indexTokenLookup(root, engine) }) });
    if (args.options.get('json') === true) process.stdout.write(JSON.stringify(report) + '\n');
    else if (args.options.get('quiet') !== true) process.stdout.write(formatDeconReport(report, written.map((w) => (w.manifest ? `${w.path} (listed in ${w.manifest})` : w.path))));
    return 0;
  } finally {
    engine?.close();
  }
}
