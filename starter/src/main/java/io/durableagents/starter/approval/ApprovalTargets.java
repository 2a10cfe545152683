package io.durableagents.starter.approval;

import com.fasterxml.jackson.core.type.TypeReference;
import io.durableagents.workflows.SearchAttributes;
import io.durableagents.workflows.approval.ToolApproval;
import io.durableagents.workflows.approval.ToolApprovals;
import io.durableagents.workflows.autonomous.AutonomousAgentWorkflow;
import io.durableagents.workflows.autonomous.SubAgentReport;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.common.v1.Payload;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionRequest;
import io.temporal.api.workflowservice.v1.ListOpenWorkflowExecutionsRequest;
import io.temporal.api.workflowservice.v1.ListWorkflowExecutionsRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowStub;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the tool calls waiting for approval under a workflow id are, and how the command line names
 * them. A decision is an update sent to the workflow that runs the call (its validator sees the call's
 * real state, so a refusal is exact); a simulation's or an autonomous agent's calls run in their child
 * workflows, so their calls are named by the child's id relative to the parent and the call's number:
 * {@code agent-citizen-3/step-5/1} under {@code sim-x} is call {@code 1} of {@code
 * sim-x/agent-citizen-3/step-5}, {@code task-2/1} under {@code auto-1} is call {@code 1} of {@code
 * auto-1/task-2}. A call of the workflow itself is its number alone.
 */
public final class ApprovalTargets {
  private static final TypeReference<List<ToolApproval>> APPROVALS = new TypeReference<>() {};
  private static final TypeReference<List<String>> IDS = new TypeReference<>() {};
  private static final TypeReference<List<SubAgentReport>> SUB_AGENTS = new TypeReference<>() {};

  /** A call as the command line shows it: its name under the workflow asked, and the call. */
  public record Named(String name, ToolApproval approval) {}

  /** A call the command line names, resolved: the workflow that runs it and its number there. */
  public record Target(String workflowId, String callId) {}

  private ApprovalTargets() {}

  /**
   * The ids of the running workflows whose {@code AwaitingApproval} search attribute is true: by a
   * visibility query, or where the server has none (the embedded test server), from its open workflows'
   * attributes.
   */
  public static List<String> awaiting(WorkflowServiceStubs service, String namespace) {
    List<WorkflowExecutionInfo> runs;
    try {
      runs = service.blockingStub().listWorkflowExecutions(ListWorkflowExecutionsRequest.newBuilder()
          .setNamespace(namespace).setPageSize(1000)
          .setQuery(SearchAttributes.AWAITING_APPROVAL.getName() + " = true AND ExecutionStatus = 'Running'")
          .build()).getExecutionsList();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        throw e;
      }
      // The test server's listing carries no search attributes: each open run is described.
      runs = new ArrayList<>();
      for (WorkflowExecutionInfo open : service.blockingStub().listOpenWorkflowExecutions(
          ListOpenWorkflowExecutionsRequest.newBuilder().setNamespace(namespace).setMaximumPageSize(1000).build())
          .getExecutionsList()) {
        try {
          runs.add(service.blockingStub().describeWorkflowExecution(DescribeWorkflowExecutionRequest.newBuilder()
              .setNamespace(namespace).setExecution(open.getExecution()).build()).getWorkflowExecutionInfo());
        } catch (StatusRuntimeException gone) {
          // closed since the listing
        }
      }
    }
    List<String> ids = new ArrayList<>();
    for (WorkflowExecutionInfo r : runs) {
      Payload marked = r.getSearchAttributes().getIndexedFieldsMap().get(SearchAttributes.AWAITING_APPROVAL.getName());
      if (marked != null && Boolean.TRUE.equals(DefaultDataConverter.STANDARD_INSTANCE.fromPayload(
          marked, Boolean.class, Boolean.class)) && !ids.contains(r.getExecution().getWorkflowId())) {
        ids.add(r.getExecution().getWorkflowId());
      }
    }
    return ids;
  }

  /** The workflow and call a name given under {@code workflowId} stands for. */
  public static Target resolve(String workflowId, String call) {
    String c = call.strip();
    int slash = c.lastIndexOf('/');
    if (slash < 0) {
      return new Target(workflowId, c);
    }
    return new Target(workflowId + "/" + c.substring(0, slash), c.substring(slash + 1));
  }

  /**
   * Every call under {@code workflowId} (waiting ones only unless {@code all}): its own, and for a
   * simulation those of its running agent steps, for an autonomous agent those of its running sub-agents
   * (at any depth).
   */
  public static List<Named> list(WorkflowClient client, String workflowId, boolean all) {
    List<Named> out = new ArrayList<>();
    WorkflowStub root = client.newUntypedWorkflowStub(workflowId);
    String type = root.describe().getWorkflowType();
    if ("Simulation".equals(type)) {
      List<String> children = root.query("runningAgentSteps", List.class, IDS.getType());
      for (String child : children) {
        collect(client, workflowId, child, all, out);
      }
    } else {
      collect(client, workflowId, workflowId, all, out);
    }
    return out;
  }

  private static void collect(WorkflowClient client, String root, String workflowId, boolean all, List<Named> out) {
    WorkflowStub run = client.newUntypedWorkflowStub(workflowId);
    List<ToolApproval> approvals;
    try {
      approvals = run.query(ToolApprovals.QUERY, List.class, APPROVALS.getType());
    } catch (RuntimeException ended) {
      // An agent step that ended between the two queries has nothing waiting.
      if (!workflowId.equals(root)) {
        return;
      }
      throw ended;
    }
    String prefix = workflowId.equals(root) ? "" : workflowId.substring(root.length() + 1) + "/";
    for (ToolApproval a : approvals) {
      if (all || a.pending()) {
        out.add(new Named(prefix + a.callId(), a));
      }
    }
    if (AutonomousAgentWorkflow.TYPE.equals(run.describe().getWorkflowType())) {
      List<SubAgentReport> subAgents = run.query("subAgents", List.class, SUB_AGENTS.getType());
      for (SubAgentReport s : subAgents) {
        if ("running".equals(s.status())) {
          collect(client, root, workflowId + "/" + s.taskId(), all, out);
        }
      }
    }
  }
}
