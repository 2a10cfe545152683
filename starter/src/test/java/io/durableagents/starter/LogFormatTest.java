package io.durableagents.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.joran.JoranConfigurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import io.durableagents.worker.AgentLogContext;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The starter's processes (worker, dev-server, demo) log in the format whose context the worker's
 * LogContextTest checks: {@code workflowId=... agentId=... activity=... - message}. The starter ships
 * that format in its logback.xml; the worker, a library, ships none.
 */
class LogFormatTest {
  private static String line(PatternLayoutEncoder encoder, Logger logger, Map<String, String> mdc, String message) {
    LoggingEvent event = new LoggingEvent(Logger.class.getName(), logger, Level.INFO, message, null, null);
    event.setMDCPropertyMap(mdc);
    return new String(encoder.encode(event), StandardCharsets.UTF_8).strip();
  }

  @Test
  void theStartersLogbackXmlWritesWorkflowIdAgentIdAndActivityType() throws Exception {
    URL config = LogFormatTest.class.getClassLoader().getResource("logback.xml");
    assertNotNull(config, "starter/src/main/resources/logback.xml is on the classpath");

    LoggerContext context = new LoggerContext();
    try {
      JoranConfigurator configurator = new JoranConfigurator();
      configurator.setContext(context);
      configurator.doConfigure(config);
      Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
      @SuppressWarnings("unchecked")
      OutputStreamAppender<ILoggingEvent> stderr = (OutputStreamAppender<ILoggingEvent>) root.getAppender("STDERR");
      assertNotNull(stderr, "the root logger writes to STDERR");
      PatternLayoutEncoder encoder = (PatternLayoutEncoder) stderr.getEncoder();

      // the MDC keys of Temporal's SDK (workflow id, activity type) and of AgentLogContext
      Logger llm = context.getLogger("io.durableagents.activities.llm.LlmActivitiesImpl");
      String activityLine = line(encoder, llm, Map.of("WorkflowId", "sim-1/agent-citizen-0/step-1",
          AgentLogContext.AGENT_ID, "citizen-0", "ActivityType", "LlmChat"), "llm call to rules");
      assertTrue(activityLine.endsWith(
          " workflowId=sim-1/agent-citizen-0/step-1 agentId=citizen-0 activity=LlmChat - llm call to rules"),
          activityLine);
      String plainLine = line(encoder, context.getLogger("io.durableagents.worker.WorkerMain"), Map.of(),
          "worker started");
      assertTrue(plainLine.endsWith(" workflowId=- agentId=- activity=- - worker started"), plainLine);

      // our INFO lines are shown; Temporal's and gRPC's only from WARN on
      assertEquals(Level.INFO, llm.getEffectiveLevel());
      assertEquals(Level.WARN, context.getLogger("io.temporal.internal.worker.Poller").getEffectiveLevel());
      assertEquals(Level.WARN, context.getLogger("io.grpc.netty").getEffectiveLevel());
    } finally {
      context.stop();
    }
  }
}
