import { Counter } from "./counter";

// Rendered for each request and streamed, as the console's pages are.
export const dynamic = "force-dynamic";

const ROWS = Array.from({ length: 20 }, (_, i) => ({
  id: `log-${i}`,
  status: i % 3 === 0 ? "Failed" : "Success",
  code: i % 3 === 0 ? 500 : 200,
}));

/**
 * The framework's floor for a page (Lighthouse's rows of the bench): the least an App Router page
 * that hydrates costs in this Next, React and browser. A heading, one client component and a
 * 20-row table rendered on the server; no CSS, no data fetching, no providers.
 */
export default function Page() {
  return (
    <main>
      <h1>Webhook deliveries</h1>
      <Counter />
      <table>
        <thead>
          <tr>
            <th>Log</th>
            <th>Status</th>
            <th>HTTP status</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map((row) => (
            <tr key={row.id}>
              <td>{row.id}</td>
              <td>{row.status}</td>
              <td>{row.code}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
