#!/usr/bin/env bash
# budget-minutes: 15
# The distribution: ./mvnw package -Pdist builds distribution/target/verbatim-VERSION.tar.gz
# (with every module's -sources and -javadoc jars), and DistributionIT unpacks it into an empty
# directory, puts its bin/ on PATH and runs Ring and a program compiled with mpijavac. The tests
# of the other modules ran in the verify step before; only the distribution's runs here. Then a
# user's own Maven project built against the deployed artifacts (see the end).
set -euo pipefail
cd "$(dirname "$0")/../.."
./mvnw -q verify -Pdist -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=DistributionIT -Dfailsafe.failIfNoSpecifiedTests=false
ls -l distribution/target/verbatim-*.tar.gz

# A user's own Maven project (issue 19): it imports org.verbatim:verbatim-bom and depends on
# verbatim-mpi-core, resolved from a file repository holding exactly what `deploy` publishes
# (nothing is installed into ~/.m2), is packaged by Maven and runs with bin/mpirun -cp app.jar.
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
./mvnw -q deploy -DskipTests -Dmaven.install.skip=true -pl bom,launcher -am \
  -DaltDeploymentRepository="verbatim-test::file://$tmp/repo"
# (deploy leaves only metadata of the test repository in ~/.m2: no artifact to go stale)
find "$HOME/.m2/repository/org/verbatim" -name '*verbatim-test*' -delete 2> /dev/null || true
mkdir -p "$tmp/app/src/main/java"
cat > "$tmp/app/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>org.example</groupId>
  <artifactId>app</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.release>25</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <repositories>
    <repository>
      <id>verbatim-test</id>
      <url>file://$tmp/repo</url>
      <snapshots><enabled>true</enabled></snapshots>
    </repository>
  </repositories>
  <dependencyManagement>
    <dependencies>
      <dependency>
        <groupId>org.verbatim</groupId>
        <artifactId>verbatim-bom</artifactId>
        <version>$version</version>
        <type>pom</type>
        <scope>import</scope>
      </dependency>
    </dependencies>
  </dependencyManagement>
  <dependencies>
    <dependency>
      <groupId>org.verbatim</groupId>
      <artifactId>verbatim-mpi-core</artifactId>
      <scope>provided</scope>
    </dependency>
  </dependencies>
  <build><finalName>app</finalName></build>
</project>
POM
cat > "$tmp/app/src/main/java/App.java" <<'JAVA'
import mpi.MPI;
import mpi.MPIException;

public class App {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int[] v = {MPI.COMM_WORLD.getRank() + 1};
        MPI.COMM_WORLD.allReduce(v, 1, MPI.INT, MPI.SUM);
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println("user project: sum " + v[0]);
        }
        MPI.Finalize();
    }
}
JAVA
JAVA_HOME=$(bin/jdk-home) MAVEN_OPTS=--sun-misc-unsafe-memory-access=allow ./mvnw -q -f "$tmp/app/pom.xml" package -Dmaven.repo.local="$tmp/m2"
out=$(bin/mpirun -np 3 --timeout 120 --no-aot -cp "$tmp/app/target/app.jar" App)
echo "$out"
[ "$out" = "user project: sum 6" ]
