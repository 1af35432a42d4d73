// Used by scripts/rdma-guest/junit-direct (not part of the build).
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TagFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs JUnit classes (or Class#method) without Maven; prints per-class counts and failures.
 * {@code -Druntests.tags=rdma} runs only the tests with one of those tags.
 */
public class RunTests {
    public static void main(String[] args) {
        List<DiscoverySelector> sel = new ArrayList<>();
        for (String a : args) {
            sel.add(a.contains("#") ? selectMethod(a) : selectClass(a));
        }
        LauncherDiscoveryRequestBuilder builder = LauncherDiscoveryRequestBuilder.request().selectors(sel);
        String tags = System.getProperty("runtests.tags", "");
        if (!tags.isEmpty()) {
            builder.filters(TagFilter.includeTags(tags.split(",")));
        }
        LauncherDiscoveryRequest req = builder.build();
        Launcher launcher = LauncherFactory.create();
        Map<String, int[]> counts = new TreeMap<>();
        long[] start = new long[1];
        TestExecutionListener l = new TestExecutionListener() {
            String cls(TestIdentifier id) {
                String u = id.getUniqueId();
                int i = u.indexOf("[class:");
                return i < 0 ? "?" : u.substring(i + 7, u.indexOf(']', i)).replaceAll(".*\\.", "");
            }
            public void executionStarted(TestIdentifier id) {
                if (id.isTest()) {
                    System.out.println("START " + cls(id) + " " + id.getDisplayName() + " " + java.time.LocalTime.now());
                }
            }
            public void executionSkipped(TestIdentifier id, String reason) {
                if (id.isTest()) {
                    counts.computeIfAbsent(cls(id), k -> new int[3])[2]++;
                    System.out.println("SKIP " + cls(id) + " " + id.getDisplayName() + ": " + reason);
                }
            }
            public void executionFinished(TestIdentifier id, TestExecutionResult r) {
                if (!id.isTest()) {
                    if (r.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                        System.out.println("CONTAINER FAILED " + id.getDisplayName() + ": " + r.getThrowable().orElse(null));
                    }
                    return;
                }
                int[] c = counts.computeIfAbsent(cls(id), k -> new int[3]);
                if (r.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                    c[0]++;
                    System.out.println("PASS " + cls(id) + " " + id.getDisplayName());
                } else if (r.getStatus() == TestExecutionResult.Status.ABORTED) {
                    c[2]++;
                    System.out.println("SKIP " + cls(id) + " " + id.getDisplayName() + ": "
                            + r.getThrowable().map(Throwable::getMessage).orElse(""));
                } else {
                    c[1]++;
                    Throwable t = r.getThrowable().orElse(null);
                    System.out.println("FAIL " + cls(id) + " " + id.getDisplayName() + ": " + t);
                    if (t != null) {
                        Throwable c2 = t.getCause();
                        if (c2 != null) System.out.println("  cause: " + c2);
                        for (StackTraceElement e : (c2 != null ? c2 : t).getStackTrace()) {
                            if (e.getClassName().startsWith("org.verbatim")) System.out.println("    at " + e);
                        }
                        for (Throwable s : t.getSuppressed()) System.out.println("  also: " + s);
                    }
                }
            }
        };
        launcher.execute(req, l);
        int failed = 0;
        for (var e : counts.entrySet()) {
            System.out.println("SUMMARY " + e.getKey() + ": " + e.getValue()[0] + " passed, " + e.getValue()[1]
                    + " failed, " + e.getValue()[2] + " skipped");
            failed += e.getValue()[1];
        }
        System.exit(failed == 0 ? 0 : 1);
    }
}
