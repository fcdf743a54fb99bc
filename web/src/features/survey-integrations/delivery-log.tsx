import { formatDate, zoneOf } from "../../lib/wasm";
import { useDeliveries } from "./api/integrations";

/** Unix milliseconds in the viewer's zone (wasm-core's LogDateTime format). */
function when(ms: number): string {
  const iso = new Date(ms).toISOString();
  const zone = zoneOf(iso);
  return formatDate(iso, "LogDateTime", zone.offsetMinutes, zone.zoneAbbr);
}

/** What the integrations did (issue 17): every Maglink file, webhook request and survey action
 * of the survey events, with its status, attempts and the last HTTP status code. */
export function DeliveryLog() {
  const deliveries = useDeliveries();
  return (
    <section className="panel integrations-log" aria-labelledby="deliveries-title">
      <div className="integrations-log-head">
        <h2 id="deliveries-title">Delivery log</h2>
        <button type="button" className="button" onClick={() => void deliveries.refetch()}>
          Refresh
        </button>
      </div>
      {deliveries.isError && <p role="alert">The delivery log could not be loaded.</p>}
      {deliveries.data && deliveries.data.length === 0 && <p>No survey event has been delivered yet.</p>}
      {deliveries.data && deliveries.data.length > 0 && (
        <div className="integrations-log-scroll" tabIndex={0} role="region" aria-label="Delivery log (scrolls)">
          <table className="integrations-log-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Event</th>
                <th scope="col">Target</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">HTTP</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((d) => (
                <tr key={d.Id}>
                  <td>{when(d.CreatedAt)}</td>
                  <td>{d.Kind}</td>
                  <td>{d.Event}</td>
                  <td className="integrations-wrap">{d.Target || "(none)"}</td>
                  <td>{d.Status}</td>
                  <td>{d.Attempts}</td>
                  <td>{d.StatusCode ?? ""}</td>
                  <td className="integrations-wrap">
                    <pre>{d.LastError ?? d.Detail ?? ""}</pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
