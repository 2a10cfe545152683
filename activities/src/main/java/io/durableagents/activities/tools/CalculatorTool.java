package io.durableagents.activities.tools;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import net.objecthunter.exp4j.ExpressionBuilder;

/** An external tool that evaluates arithmetic expressions (with exp4j: + - * / ^ %, sqrt, sin, ...). */
public class CalculatorTool {
  @Tool(name = "calculator",
      value = "Evaluate an arithmetic expression, e.g. '2 * (3 + 4) ^ 2' or 'sqrt(2) / 3'.")
  public String calculate(@P("the expression to evaluate") String expression) {
    double value;
    try {
      value = new ExpressionBuilder(expression).build().evaluate();
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "cannot evaluate '" + expression + "': " + e.getMessage(), e);
    }
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return Double.toString(value);
  }
}
