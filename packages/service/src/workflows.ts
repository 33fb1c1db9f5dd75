/**
 * Workflows and their versions: creating a workflow, who may see and change it, saving a
 * version (judged by the checker with the service's catalogue), publishing one. A version never
 * changes once saved, so what a run needs of it (its estimate, its planned nodes, each terminal
 * part's subjects) is worked out once per version and kept (`plan`), instead of parsing its
 * body at every run start and every part.
 */
import { validateDefinition, type Catalogue, type Estimate } from "@wfkit/core";
import type { CreateWorkflowResponse, PublishResponse, SaveVersionResponse } from "@wfkit/client";
import type { Accounts } from "./accounts.js";
import type { Clock } from "./clock.js";
import { errors } from "./errors.js";
import { isoTime, optionalText, text } from "./rows.js";
import { planRun, subjectsByNode, type PlannedNode } from "./runs.js";
import type { Row, Store } from "./store.js";
import { newId } from "./ids.js";

/** Versions whose plan is kept; a run of another is planned from its row again. */
const PLANS_KEPT = 256;

/** A `workflows` row with its owner's organisation. */
export interface WorkflowRow {
  id: string;
  name: string;
  ownerUserId: string;
  publishedVersionId: string | null;
  ownerOrganisationId: string | null;
}

function workflowOf(row: Row): WorkflowRow {
  return {
    id: text(row, "id"),
    name: text(row, "name"),
    ownerUserId: text(row, "owner_user_id"),
    publishedVersionId: optionalText(row, "published_version_id"),
    ownerOrganisationId: optionalText(row, "organisation_id"),
  };
}

/** What a run of a version needs of it, worked out once. */
export interface VersionPlan {
  id: string;
  estimate: Estimate;
  /** The nodes in walking order: a node's position in a run is its index here. */
  nodes: readonly PlannedNode[];
  /** Each node's inputs, as positions (all before its own). */
  inputs: readonly (readonly number[])[];
  /** Each terminal part's subjects' canonical ids, by node id. */
  subjects: ReadonlyMap<string, string[]>;
}

export class Workflows {
  private readonly plans = new Map<string, VersionPlan>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly accounts: Accounts,
    private readonly catalogue: Catalogue,
  ) {}

  createWorkflow(userId: string, name: string): CreateWorkflowResponse {
    const id = newId("wf");
    this.store.transaction(() => this.store.run("INSERT INTO workflows (id, name, owner_user_id, created_at) VALUES (?, ?, ?, ?)", [id, name, userId, this.clock.now()]));
    return { workflow: { id, name } };
  }

  /** The workflow if the caller may see it (its owner, or a member of the owner's organisation). */
  visibleWorkflow(userId: string, workflowId: string): WorkflowRow {
    // Every call on a workflow reads this row, and run starts (which write neither table) most.
    const workflow = this.store.remembered(`workflow ${workflowId}`, ["workflows", "users"], () => {
      const row = this.store.get(
        "SELECT w.id, w.name, w.owner_user_id, w.published_version_id, u.organisation_id FROM workflows w JOIN users u ON u.id = w.owner_user_id WHERE w.id = ?",
        [workflowId],
      );
      return row && Object.freeze(workflowOf(row));
    });
    if (!workflow) throw errors.workflowNotFound(workflowId);
    // Its owner is a user (the join found them); anyone else must be of the owner's organisation.
    if (workflow.ownerUserId === userId) return workflow;
    const caller = this.accounts.user(userId);
    const sameOrganisation = caller !== undefined && caller.organisationId !== null && caller.organisationId === workflow.ownerOrganisationId;
    if (!sameOrganisation) throw errors.workflowNotFound(workflowId);
    return workflow;
  }

  ownedWorkflow(userId: string, workflowId: string, action: string): WorkflowRow {
    const workflow = this.visibleWorkflow(userId, workflowId);
    if (workflow.ownerUserId !== userId) throw errors.notOwner(action);
    return workflow;
  }

  saveVersion(userId: string, workflowId: string, body: unknown): SaveVersionResponse {
    this.ownedWorkflow(userId, workflowId, "save versions");
    const result = validateDefinition(body, { catalogue: this.catalogue });
    if (!result.ok) throw errors.validation(result.faults);
    const id = newId("ver");
    const now = this.clock.now();
    this.store.transaction(() =>
      this.store.run("INSERT INTO versions (id, workflow_id, body, estimate, created_at) VALUES (?, ?, ?, ?, ?)", [id, workflowId, JSON.stringify(body), JSON.stringify(result.estimate), now]),
    );
    return { version: { id, workflowId, published: false, estimate: result.estimate, createdAt: isoTime(now) } };
  }

  publish(userId: string, workflowId: string, versionId: string): PublishResponse {
    this.ownedWorkflow(userId, workflowId, "publish versions");
    if (!this.store.get("SELECT id FROM versions WHERE id = ? AND workflow_id = ?", [versionId, workflowId])) throw errors.versionNotFound(versionId);
    const now = this.clock.now();
    this.store.transaction(() => {
      this.store.run("UPDATE versions SET published_at = ? WHERE id = ?", [now, versionId]);
      this.store.run("UPDATE workflows SET published_version_id = ? WHERE id = ?", [versionId, workflowId]);
    });
    return { ok: true, workflow: { id: workflowId, publishedVersionId: versionId }, version: { id: versionId, published: true, publishedAt: isoTime(now) } };
  }

  /** What runs of a version need of it; undefined when there is no such version. */
  plan(versionId: string): VersionPlan | undefined {
    const kept = this.plans.get(versionId);
    if (kept) return kept;
    const row = this.store.get("SELECT body, estimate FROM versions WHERE id = ?", [versionId]);
    if (!row) return undefined;
    const body: unknown = JSON.parse(text(row, "body"));
    const estimate = JSON.parse(text(row, "estimate")) as Estimate;
    const nodes = planRun(body, estimate);
    const subjects = subjectsByNode(body);
    const position = new Map(nodes.map((node, i) => [node.nodeId, i]));
    const inputs = nodes.map((node) => node.upstream.map((id) => position.get(id)!));
    const plan: VersionPlan = { id: versionId, estimate, nodes, inputs, subjects };
    if (this.plans.size >= PLANS_KEPT) this.plans.delete(this.plans.keys().next().value as string);
    this.plans.set(versionId, plan);
    return plan;
  }

  /** Forgets every kept plan (admin reset empties the versions). */
  forgetPlans(): void {
    this.plans.clear();
  }
}
