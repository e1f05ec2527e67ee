import type { ComponentChildren } from 'preact';

/** A column's heading: its text; `numeric` for amounts (right-aligned, as their cells); false: not shown. */
export type Column = string | { text: string; numeric: true } | false;

/** Rows under one header row, scrolled sideways on a narrow screen: every list of the console. */
export function DataTable({
  columns,
  class: className,
  children,
}: {
  columns: Column[];
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={className}>
        <thead>
          <tr>
            {columns.map((column, index) => {
              if (column === false) return null;
              return typeof column === 'string' ? (
                <th key={index} scope="col">
                  {column}
                </th>
              ) : (
                <th key={index} scope="col" class="num">
                  {column.text}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
