package io.durableagents.starter.approval;

import io.durableagents.starter.CommandFailure;
import io.durableagents.starter.Environment;
import io.durableagents.starter.Failures;
import io.durableagents.starter.SimulationControl;
import io.durableagents.starter.TemporalCheck;
import io.durableagents.starter.Updates;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.approval.ApprovalDecision;
import io.durableagents.workflows.approval.ApprovalResult;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowNotFoundException;
import io.temporal.client.WorkflowStub;
import io.temporal.serviceclient.WorkflowServiceStubs;

/** Sends an {@code approve}, {@code deny} or {@code edit} update to the workflow that runs a call. */
final class ApprovalDecisions {
  private ApprovalDecisions() {}

  /** Whether the run exists and is closed. */
  private static boolean ended(WorkflowStub run) {
    try {
      run.describe();
      return true;
    } catch (RuntimeException notThere) {
      return false;
    }
  }

  /** Sends {@code update} with {@code decision} for {@code call} under {@code workflowId}; prints the outcome. */
  static int send(String command, String workflowId, String call, String update, ApprovalDecision decision) {
    if (call == null || call.isBlank()) {
      throw CommandFailure.usage("no call given", "'approvals " + workflowId + "' lists the waiting calls.");
    }
    ApprovalTargets.Target target = ApprovalTargets.resolve(workflowId, call);
    ApprovalDecision addressed = new ApprovalDecision(target.callId(), decision.arguments(), decision.reason(),
        decision.reviewer());
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      WorkflowClient client = connection.client(service);
      WorkflowStub run = client.newUntypedWorkflowStub(target.workflowId());
      ApprovalResult result;
      try {
        result = Updates.call(command, target.workflowId(),
            () -> run.update(update, ApprovalResult.class, addressed));
      } catch (WorkflowNotFoundException e) {
        if (ended(run)) {
          throw CommandFailure.usage("'" + target.workflowId() + "' has ended: it has no call left to decide",
              "'approvals " + workflowId + " --all' shows how its calls were decided.");
        }
        throw new CommandFailure(Failures.NOT_FOUND, "'" + target.workflowId() + "': no such run",
            "'approvals " + workflowId + "' lists the calls that wait; check TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE.");
      } catch (CommandFailure refused) {
        throw refused;
      } catch (RuntimeException e) {
        String text = String.valueOf(SimulationControl.rootMessage(e));
        if (text.contains("nknown update") || text.contains("update type") || text.contains("handler")) {
          throw CommandFailure.usage("'" + target.workflowId() + "' runs no tool calls of its own",
              "The calls of a simulation or an autonomous agent are named <agent step>/<n>: "
                  + "'approvals " + workflowId + "' lists them.");
        }
        throw Failures.about("'" + target.workflowId() + "' on " + connection.address(), e);
      }
      System.out.println("Call " + call + " (" + result.tool() + ") of " + workflowId + ": "
          + result.outcome().label() + (target.workflowId().equals(workflowId) ? ""
          : " (in " + target.workflowId() + ")"));
      return 0;
    } finally {
      service.shutdown();
    }
  }
}
