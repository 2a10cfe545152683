package io.durableagents.starter;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.durableagents.worker.TemporalConnection;
import io.durableagents.workflows.simulation.SimulationWorkflow;
import io.temporal.client.WorkflowClient;
import io.temporal.serviceclient.WorkflowServiceStubs;
import java.util.function.Function;

/** Connects to Temporal, runs one signal or query against a simulation, and reports a failure. */
final class SimulationControl {
  static final ObjectMapper PRETTY = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
      .findAndRegisterModules();

  private SimulationControl() {}

  /**
   * Runs {@code action} on the simulation {@code workflowId}; returns 0, or 1 after printing why it
   * could not (no such run, no worker answering a query).
   */
  static int on(String command, String workflowId, Function<SimulationWorkflow, Integer> action) {
    TemporalConnection connection = TemporalConnection.fromEnvironment(Environment.variables());
    WorkflowServiceStubs service = TemporalCheck.connect(connection);
    try {
      WorkflowClient client = connection.client(service);
      try {
        return action.apply(client.newWorkflowStub(SimulationWorkflow.class, workflowId));
      } catch (RuntimeException e) {
        throw Failures.about("'" + workflowId + "' on " + connection.address(), e);
      }
    } finally {
      service.shutdown();
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getMessage();
  }

  static String json(Object value) {
    try {
      return PRETTY.writeValueAsString(value);
    } catch (Exception e) {
      return String.valueOf(value);
    }
  }
}
