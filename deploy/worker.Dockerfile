# The Durable Agents worker: built from this repository, run from the shaded jar.
FROM maven:3.9-eclipse-temurin-21 AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests -Dmaven.source.skip -Dmaven.javadoc.skip package

FROM eclipse-temurin:21-jre
WORKDIR /app
COPY --from=build /src/starter/target/durable-agents.jar /app/durable-agents.jar
EXPOSE 9464
ENTRYPOINT ["java", "-jar", "/app/durable-agents.jar", "worker"]
