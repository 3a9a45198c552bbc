"""Every summary of a run, derived here and nowhere else, from typed rows with one `to_json` /
`from_json` each (`passes`, `runs`):

- `trace`: a report's `--json` document and its counts (`report_summary`, kept in its record);
- `comparison`: the same for a run against run (`comparison_summary`);
- `line`: the line the command ends with (`summary_line`, from a `RunOutcome`);
- `sweep`: each program's counts in sweep.json and its comparison with the baseline's, the
  totals, the index page's rows.
"""
