#!/bin/sh
# Creates the namespace and Durable Agents' search attributes once the server is healthy
# (after temporalio/samples-server compose/scripts/create-namespace.sh).
set -eu
NAMESPACE=${DEFAULT_NAMESPACE:-default}
TEMPORAL_ADDRESS=${TEMPORAL_ADDRESS:-temporal:7233}
TEMPORAL_HOST=$(echo $TEMPORAL_ADDRESS | cut -d: -f1)
TEMPORAL_PORT=$(echo $TEMPORAL_ADDRESS | cut -d: -f2)

nc -z -w 10 $TEMPORAL_HOST $TEMPORAL_PORT
TEMPORAL_IP=$(getent ahosts $TEMPORAL_HOST | grep STREAM | head -1 | awk '{print $1}')
ADDRESS="${TEMPORAL_IP}:${TEMPORAL_PORT}"

attempt=0
until temporal operator cluster health --address $ADDRESS; do
  attempt=$((attempt + 1))
  if [ $attempt -ge 10 ]; then
    echo "Server did not become healthy"
    exit 1
  fi
  sleep 5
done

temporal operator namespace describe -n $NAMESPACE --address $ADDRESS \
  || temporal operator namespace create -n $NAMESPACE --address $ADDRESS

# Search attributes, so that runs can be filtered by scenario, strategy, step and origin in the UI.
for attribute in Scenario:Keyword Strategy:Keyword SimStep:Int ForkedFrom:Keyword AwaitingApproval:Bool; do
  name=${attribute%%:*}
  type=${attribute##*:}
  temporal operator search-attribute create --namespace $NAMESPACE --address $ADDRESS \
    --name $name --type $type || echo "search attribute $name exists"
done
echo "Namespace '$NAMESPACE' ready"
