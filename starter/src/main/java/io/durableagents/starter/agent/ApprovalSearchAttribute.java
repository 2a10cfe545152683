package io.durableagents.starter.agent;

import io.durableagents.worker.SearchAttributeRegistry;
import io.durableagents.workflows.agent.AgentOptions;
import io.durableagents.workflows.approval.ApprovalOptions;
import io.durableagents.workflows.autonomous.AgentSpec;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.OperatorServiceStubs;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns on the {@code AwaitingApproval} search attribute of a run's approvals when the namespace has our
 * search attributes registered (an unregistered one would fail the workflow task), so that {@code
 * AwaitingApproval = true} in the Temporal UI's list finds the runs with a call waiting. A simulation's
 * agent steps need nothing: they are started with the simulation's search attributes, and set this one
 * when they have those.
 */
final class ApprovalSearchAttribute {
  private ApprovalSearchAttribute() {}

  /** Whether the client's namespace has every one of our search attributes; false when it cannot tell. */
  static boolean registered(WorkflowClient client) {
    OperatorServiceStubs operator = SearchAttributeRegistry.connect(
        client.getWorkflowServiceStubs().getOptions().getTarget());
    try {
      return SearchAttributeRegistry.registered(operator, client.getOptions().getNamespace());
    } catch (RuntimeException e) {
      return false;
    } finally {
      operator.shutdownNow();
    }
  }

  /** {@code options} with the search attribute on. */
  static AgentOptions on(AgentOptions options) {
    ApprovalOptions a = options.approval() == null ? ApprovalOptions.NONE : options.approval();
    return options.toBuilder().setApproval(a.withSearchAttribute(true)).build();
  }

  /** {@code spec} and every sub-agent's spec, at any depth, with the search attribute on. */
  static AgentSpec on(AgentSpec spec) {
    ApprovalOptions a = spec.approval() == null ? ApprovalOptions.NONE : spec.approval();
    AgentSpec marked = spec.withApproval(a.withSearchAttribute(true));
    if (spec.spawn() == null) {
      return marked;
    }
    List<AgentSpec.SubAgent> agents = new ArrayList<>();
    for (AgentSpec.SubAgent s : spec.spawn().agents()) {
      agents.add(new AgentSpec.SubAgent(s.name(), s.description(), on(s.spec())));
    }
    AgentSpec.Spawn spawn = new AgentSpec.Spawn(spec.spawn().maxConcurrent(), spec.spawn().maxDepth(),
        spec.spawn().timeoutSeconds(), agents);
    return marked.withSpawn(spawn);
  }
}
