package io.durableagents.worker;

import io.durableagents.workflows.SearchAttributes;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.enums.v1.IndexedValueType;
import io.temporal.api.operatorservice.v1.AddSearchAttributesRequest;
import io.temporal.api.operatorservice.v1.ListSearchAttributesRequest;
import io.temporal.common.SearchAttributeKey;
import io.temporal.serviceclient.OperatorServiceStubs;
import io.temporal.serviceclient.OperatorServiceStubsOptions;
import java.util.Map;

/** Registers our search attributes on a namespace, and tells whether they are registered. */
public final class SearchAttributeRegistry {
  private SearchAttributeRegistry() {}

  /** Connects to the operator API at {@code address}. */
  public static OperatorServiceStubs connect(String address) {
    return OperatorServiceStubs.newServiceStubs(OperatorServiceStubsOptions.newBuilder().setTarget(address).validateAndBuildWithDefaults());
  }

  /** Registers every one of {@link SearchAttributes#ALL} that is missing. */
  public static void register(OperatorServiceStubs operator, String namespace) {
    for (SearchAttributeKey<?> key : SearchAttributes.ALL) {
      try {
        operator.blockingStub().addSearchAttributes(AddSearchAttributesRequest.newBuilder()
            .setNamespace(namespace).putSearchAttributes(key.getName(), key.getValueType()).build());
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.ALREADY_EXISTS) {
          throw e;
        }
      }
    }
  }

  /**
   * Whether all of {@link SearchAttributes#ALL} are registered; false when the server won't say. A
   * server without the listing call (Temporal's test server) is asked to register them instead.
   */
  public static boolean registered(OperatorServiceStubs operator, String namespace) {
    try {
      Map<String, IndexedValueType> custom = operator.blockingStub().listSearchAttributes(
          ListSearchAttributesRequest.newBuilder().setNamespace(namespace).build()).getCustomAttributesMap();
      return SearchAttributes.ALL.stream()
          .allMatch(k -> custom.get(k.getName()) == k.getValueType());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
        return false;
      }
    }
    try {
      register(operator, namespace);
      return true;
    } catch (StatusRuntimeException e) {
      return false;
    }
  }
}
