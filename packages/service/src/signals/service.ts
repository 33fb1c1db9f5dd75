/**
 * The Consumer Signals API's state and rules, apart from HTTP: who a credential is, alert
 * tokens, alerts and saved views (in the service's database, so they outlive a restart), and
 * the AI endpoints' limit. Alert and view bodies are judged by @wfkit/core's
 * `validateAlertBody` / `validateViewBody` and nothing else: the service accepts exactly what
 * `wfkit check` passes.
 */
import { validateAlertBody, validateViewBody } from "@wfkit/core";
import { CredentialRefused, newSecret, sha256, type Authenticator } from "../auth.js";
import type { Clock } from "../clock.js";
import { ApiError } from "../errors.js";
import { flag, integer, json, optionalInteger, optionalNumber, optionalText, text } from "../rows.js";
import type { Row, Store } from "../store.js";
import { signalsErrors } from "./errors.js";
import { judgeAlert, nextPeriodEnd, PERIOD_OF_TYPE, periodsNeeded, periodStart, type AlertPeriod } from "./evaluate.js";
import { AiRateLimiter } from "./limiter.js";
import { ALERT_TICK_MS, ALERT_TOKEN_PREFIX, DEFAULT_GEOGRAPHY, DETAIL_PLANS, MAX_PERIODS_JUDGED_AT_ONCE, type AiLimit } from "./policy.js";
import type { Alert, AlertNotification, Geography, SavedView } from "./types.js";
import { newId } from "../ids.js";

export interface SignalsCaller {
  userId: string;
  /** A higher-tier subscriber: signals carry `patternConditions` and `historicalContext`. */
  detail: boolean;
}

const ISO = (ms: number) => new Date(ms).toISOString();

export class SignalsService {
  readonly limiter: AiRateLimiter;
  /** Bumped each time the alert clock is armed, so a timer of an earlier arming does nothing. */
  private alertClockGeneration = 0;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly auth: Authenticator,
    limit: AiLimit,
  ) {
    this.limiter = new AiRateLimiter(clock, limit);
  }

  // ---- credentials ------------------------------------------------------------------------

  /** The user behind `Authorization: Bearer <JWT>`: a session token this service signed, for a user that exists. */
  jwtCaller(header: string | undefined, clientIp: string): SignalsCaller {
    if (!header) throw signalsErrors.unauthenticated("jwt", "No credential was sent");
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw signalsErrors.unauthenticated("jwt", "The Authorization header is not `Bearer <JWT>`");
    const credential = match[1]!;
    if (credential.split(".").length !== 3) throw signalsErrors.unauthenticated("jwt", "The credential is not a JWT (API keys and OAuth access tokens are for the Workflows API)");
    let userId: string;
    try {
      const caller = this.auth.caller(credential, clientIp);
      if (caller.kind !== "session") throw new CredentialRefused("The credential is not a JWT");
      userId = caller.userId;
    } catch (error) {
      if (error instanceof CredentialRefused) throw signalsErrors.unauthenticated("jwt", error.message);
      throw error;
    }
    const account = this.store.get("SELECT a.plan FROM users u JOIN accounts a ON a.id = u.account_id WHERE u.id = ?", [userId]);
    if (!account) throw signalsErrors.unauthenticated("jwt", "The JWT's user no longer exists");
    return { userId, detail: (DETAIL_PLANS as readonly string[]).includes(text(account, "plan")) };
  }

  /** The user behind `X-Alert-Token`. */
  alertTokenCaller(header: string | undefined): SignalsCaller {
    if (header === undefined || !header.trim()) throw signalsErrors.unauthenticated("alert_token", "No alert token was sent");
    const row = this.store.get("SELECT t.user_id FROM alert_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?", [sha256(header.trim())]);
    if (!row) throw signalsErrors.unauthenticated("alert_token", "The alert token is unknown");
    return { userId: text(row, "user_id"), detail: false };
  }

  static newAlertToken(): string {
    return `${ALERT_TOKEN_PREFIX}${newSecret()}`;
  }

  /** Stores an alert token's hash; inside the caller's transaction (the seed's). */
  insertAlertToken(userId: string, token: string): void {
    this.store.run("INSERT INTO alert_tokens (token_hash, user_id, created_at) VALUES (?, ?, ?)", [sha256(token), userId, this.clock.now()]);
  }

  /** A new alert token for `userId` (the admin surface: the reference does not show how one is obtained). */
  createAlertToken(userId: string): string {
    const token = SignalsService.newAlertToken();
    this.store.transaction(() => this.insertAlertToken(userId, token));
    return token;
  }

  hasAlertToken(token: string): boolean {
    return this.store.get("SELECT user_id FROM alert_tokens WHERE token_hash = ?", [sha256(token)]) !== undefined;
  }

  // ---- alerts -----------------------------------------------------------------------------

  /** `POST /api/alerts`: the checker's verdict decides; an accepted alert is stored active. */
  createAlert(userId: string, body: unknown): Alert {
    const verdict = validateAlertBody(body);
    if (!verdict.ok) throw signalsErrors.validation("alert", verdict.faults);
    const given = verdict.body;
    const optional = (name: string) => (Object.hasOwn(given, name) ? (given[name] as string | number) : null);
    const id = newId("alert");
    this.store.transaction(() =>
      this.store.run(
        "INSERT INTO alerts (id, user_id, name, type, condition, threshold, geography, active, email, sector_id, series_key, whatsapp_number, min_consecutive, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?)",
        [
          id,
          userId,
          given.name as string,
          given.type as string,
          given.condition as string,
          optional("threshold"),
          (optional("geography") as string | null) ?? DEFAULT_GEOGRAPHY,
          given.email as string,
          optional("sector_id"),
          optional("series_key"),
          optional("whatsapp_number"),
          optional("min_consecutive"),
          this.clock.now(),
        ],
      ),
    );
    return presentAlert(alertRowOf(this.store.get(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = ?`, [id])!));
  }

  alerts(userId: string): Alert[] {
    return this.store.all(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE user_id = ? ORDER BY created_at, rowid`, [userId]).map((row) => presentAlert(alertRowOf(row)));
  }

  /**
   * Turns an alert on or off (the admin surface: the reference shows `active` but no
   * transition). Either way its run of periods starts again: periods while it was off are
   * not judged, and a re-activated alert is judged from the next period end.
   */
  setAlertActive(id: string, active: boolean): Alert {
    if (!this.store.get("SELECT id FROM alerts WHERE id = ?", [id]))
      throw new ApiError(404, { error: "alert_not_found", message: `There is no alert ${id}. GET /signals/api/alerts (with the alert token) lists a user's alerts.` });
    this.store.transaction(() =>
      this.store.run("UPDATE alerts SET active = ?, consecutive_periods = 0, judged_until = ? WHERE id = ?", [active ? 1 : 0, this.clock.now(), id]),
    );
    return presentAlert(alertRowOf(this.store.get(`SELECT ${ALERT_COLUMNS} FROM alerts WHERE id = ?`, [id])!));
  }

  // ---- alerts that fire -------------------------------------------------------------------

  /**
   * Arms the alert clock: a timer on the service clock at the next period end (a Monday, or
   * the 1st of a month, 00:00 UTC), or a day from now if that is sooner (a real clock's timer
   * cannot wait longer than about 24 days). Each tick judges every period that has ended and
   * arms the next. Called at start and after a reset (which drops every timer).
   */
  startAlertClock(): void {
    const generation = ++this.alertClockGeneration;
    const now = this.clock.now();
    const next = Math.min(nextPeriodEnd("week", now), nextPeriodEnd("month", now), now + ALERT_TICK_MS);
    this.clock.schedule(next - now, () => {
      if (generation !== this.alertClockGeneration) return;
      this.judgeDueAlerts();
      this.startAlertClock();
    });
  }

  /**
   * Judges every alert for each of its periods that ended since it was last judged, in one
   * transaction. An active alert's condition is judged on the data as the endpoints show it
   * (evaluate.ts); its run of consecutive periods grows while the condition holds and ends when
   * it does not; each period that ends a run of at least `min_consecutive` (1 when absent)
   * records a notification to its address(es). Nothing is sent: the notification is the record.
   * An inactive alert's periods pass unjudged. A clock moved by more than
   * MAX_PERIODS_JUDGED_AT_ONCE periods judges only the last ones.
   */
  judgeDueAlerts(): number {
    const now = this.clock.now();
    let recorded = 0;
    this.store.transaction(() => {
      for (const row of this.store.all(`SELECT ${ALERT_COLUMNS} FROM alerts ORDER BY created_at, rowid`).map(alertRowOf)) {
        const period = PERIOD_OF_TYPE[row.type as keyof typeof PERIOD_OF_TYPE] ?? "week";
        const ends = periodEnds(period, row.judgedUntil ?? row.createdAt, now);
        if (!ends.length) continue;
        const id = row.id;
        if (!row.active) {
          this.store.run("UPDATE alerts SET consecutive_periods = 0, judged_until = ? WHERE id = ?", [ends[ends.length - 1]!, id]);
          continue;
        }
        const alert = presentAlert(row);
        const judged = {
          type: alert.type,
          condition: alert.condition,
          threshold: row.threshold,
          geography: alert.geography,
          sector_id: row.sectorId,
          series_key: row.seriesKey,
          min_consecutive: row.minConsecutive,
        };
        const needed = periodsNeeded(judged.min_consecutive);
        let run = row.consecutivePeriods;
        for (const end of ends) {
          // The sample data is a fixed snapshot, so each period's judgment reads the same data;
          // it is made per period all the same, as a service with moving data would.
          const judgment = judgeAlert(judged);
          run = judgment.holds ? run + 1 : 0;
          if (!judgment.holds || run < needed) continue;
          const notification: AlertNotification = {
            id: newId("ntf"),
            alertId: id,
            alertName: alert.name,
            type: alert.type,
            condition: alert.condition,
            ...(alert.threshold !== undefined ? { threshold: alert.threshold } : {}),
            geography: alert.geography,
            email: alert.email,
            ...(alert.whatsapp_number !== undefined ? { whatsappNumber: String(alert.whatsapp_number) } : {}),
            channels: alert.whatsapp_number !== undefined ? ["email", "whatsapp"] : ["email"],
            value: judgment.value,
            detail: judgment.detail,
            ...(judgment.signalIds ? { signalIds: judgment.signalIds } : {}),
            period,
            periodStart: ISO(periodStart(period, end)),
            periodEnd: ISO(end),
            consecutivePeriods: run,
            notifiedAt: ISO(end),
            sent: false,
          };
          this.store.run("INSERT INTO alert_notifications (id, alert_id, user_id, period_end, body) VALUES (?, ?, ?, ?, ?)", [notification.id, id, row.userId, end, JSON.stringify(notification)]);
          recorded++;
        }
        this.store.run("UPDATE alerts SET consecutive_periods = ?, judged_until = ? WHERE id = ?", [run, ends[ends.length - 1]!, id]);
      }
    });
    return recorded;
  }

  /** Every notification recorded, oldest first (by the period that triggered it, then as recorded). */
  notifications(): AlertNotification[] {
    return this.store.all("SELECT body FROM alert_notifications ORDER BY period_end, rowid").map((row) => json<AlertNotification>(row, "body"));
  }

  // ---- saved views ------------------------------------------------------------------------

  views(userId: string): SavedView[] {
    return this.store.all("SELECT id, name, geography, driver_ids, question FROM saved_views WHERE user_id = ? ORDER BY created_at, rowid", [userId]).map(presentView);
  }

  /** `POST /api/views`: the checker's verdict decides. */
  createView(userId: string, body: unknown): SavedView {
    const verdict = validateViewBody(body);
    if (!verdict.ok) throw signalsErrors.validation("saved view", verdict.faults);
    const given = verdict.body;
    const id = newId("view");
    this.store.transaction(() =>
      this.store.run("INSERT INTO saved_views (id, user_id, name, geography, driver_ids, question, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)", [
        id,
        userId,
        given.name as string,
        given.geography as string,
        JSON.stringify(given.driver_ids),
        given.question as string,
        this.clock.now(),
      ]),
    );
    return presentView(this.store.get("SELECT id, name, geography, driver_ids, question FROM saved_views WHERE id = ?", [id])!);
  }

  deleteView(userId: string, id: string): void {
    if (!this.store.get("SELECT id FROM saved_views WHERE id = ? AND user_id = ?", [id, userId])) throw signalsErrors.viewNotFound(id);
    this.store.transaction(() => this.store.run("DELETE FROM saved_views WHERE id = ?", [id]));
  }
}

/** An `alerts` row (ALERT_COLUMNS), typed. */
interface AlertRow {
  id: string;
  userId: string;
  name: string;
  type: string;
  condition: string;
  threshold: number | null;
  geography: string;
  active: boolean;
  email: string;
  sectorId: string | null;
  seriesKey: string | null;
  whatsappNumber: string | null;
  minConsecutive: number | null;
  createdAt: number;
  consecutivePeriods: number;
  judgedUntil: number | null;
}

const ALERT_COLUMNS =
  "id, user_id, name, type, condition, threshold, geography, active, email, sector_id, series_key, whatsapp_number, min_consecutive, created_at, consecutive_periods, judged_until";

function alertRowOf(row: Row): AlertRow {
  return {
    id: text(row, "id"),
    userId: text(row, "user_id"),
    name: text(row, "name"),
    type: text(row, "type"),
    condition: text(row, "condition"),
    threshold: optionalNumber(row, "threshold"),
    geography: text(row, "geography"),
    active: flag(row, "active"),
    email: text(row, "email"),
    sectorId: optionalText(row, "sector_id"),
    seriesKey: optionalText(row, "series_key"),
    whatsappNumber: optionalText(row, "whatsapp_number"),
    minConsecutive: optionalNumber(row, "min_consecutive"),
    createdAt: integer(row, "created_at"),
    consecutivePeriods: integer(row, "consecutive_periods"),
    judgedUntil: optionalInteger(row, "judged_until"),
  };
}

/** The reference's alert fields in its order, then the body's optional fields the alert was made with. */
function presentAlert(row: AlertRow): Alert {
  const alert: Alert = {
    id: row.id,
    name: row.name,
    type: row.type,
    condition: row.condition,
    ...(row.threshold !== null ? { threshold: row.threshold } : {}),
    geography: row.geography,
    active: row.active,
    email: row.email,
    created_at: ISO(row.createdAt),
  };
  if (row.sectorId !== null) alert.sector_id = row.sectorId;
  if (row.seriesKey !== null) alert.series_key = row.seriesKey;
  if (row.whatsappNumber !== null) alert.whatsapp_number = row.whatsappNumber;
  if (row.minConsecutive !== null) alert.min_consecutive = row.minConsecutive;
  return alert;
}

/** A `saved_views` row (id, name, geography, driver_ids, question) as the reference shows it. */
function presentView(row: Row): SavedView {
  return {
    id: text(row, "id"),
    name: text(row, "name"),
    geography: text(row, "geography") as Geography,
    driver_ids: json<string[]>(row, "driver_ids"),
    question: text(row, "question"),
  };
}

/** The period ends after `from` up to and including `to`, oldest first; at most the last MAX_PERIODS_JUDGED_AT_ONCE. */
function periodEnds(period: AlertPeriod, from: number, to: number): number[] {
  // No period is longer than 31 days: starting that many periods back from `to` is enough.
  const start = Math.max(from, to - (MAX_PERIODS_JUDGED_AT_ONCE + 1) * 31 * 24 * 60 * 60 * 1000);
  const ends: number[] = [];
  for (let end = nextPeriodEnd(period, start); end <= to; end = nextPeriodEnd(period, end)) ends.push(end);
  return ends.slice(-MAX_PERIODS_JUDGED_AT_ONCE);
}
