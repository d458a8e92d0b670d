// Tables beside and under the chart, built one way: the panel's report tables (view.js) and
// the data table of what the chart plots (plotted.js).

/**
 * A table with `caption`, column `headings` and `rows` of cell texts. The ARIA roles stay
 * when a narrow column lays the rows out as blocks (CSS display drops a table's semantics in
 * some browsers); each cell carries its column's name for that layout.
 */
export function buildTable(caption, headings, rows) {
  const table = document.createElement('table');
  table.setAttribute('role', 'table');
  table.createCaption().textContent = caption;
  const head = table.createTHead().insertRow();
  head.setAttribute('role', 'row');
  for (const heading of headings) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.setAttribute('role', 'columnheader');
    th.textContent = heading;
    head.append(th);
  }
  const body = table.createTBody();
  for (const row of rows) {
    const tr = body.insertRow();
    tr.setAttribute('role', 'row');
    row.forEach((text, i) => {
      const td = tr.insertCell();
      td.setAttribute('role', 'cell');
      td.textContent = text;
      td.dataset.label = headings[i];
    });
  }
  return table;
}

/** Integers as they are; ±∞ (α of a pruned basis vector) as ∞; tiny or huge values in exponent form; others to 5 significant digits. */
export function formatNumber(value) {
  // Whole numbers as they are (N, a step), but not those so large that they print in full.
  if (Number.isInteger(value) && Math.abs(value) < 1e6) return String(value);
  if (Math.abs(value) === Infinity) return value > 0 ? '∞' : '−∞';
  if (!Number.isFinite(value)) return String(value);
  const size = Math.abs(value);
  if (size !== 0 && (size < 1e-3 || size >= 1e6)) return value.toExponential(2);
  return String(Number(value.toPrecision(5)));
}
