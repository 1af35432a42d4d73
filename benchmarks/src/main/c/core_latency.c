/*
 * core_latency: the machine's own core-to-core round trip, as a yardstick for the 8 B figures.
 *
 * Two threads, pinned to CPUs A and B (the cores bin/mpirun and Open MPI bind ranks 0 and 1
 * to), pass a counter back and forth through two cache lines: each round trip moves one line
 * from A to B and another from B to A, which is the least any shared-memory ping-pong between
 * those cores can cost. On a virtual machine the host decides which physical cores the vCPUs run
 * on, and that can change for seconds at a time; this probe, run just before and after a
 * benchmark, says which case the benchmark ran in.
 *
 * Usage: core_latency [round-trips=200000] [cpu-a=0] [cpu-b=1]
 * Prints: "core_latency_ns MEDIAN MIN MAX" over 5 equal parts of the round trips.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PARTS 5

static _Alignas(64) _Atomic long ping;
static _Alignas(64) _Atomic long pong;
static long total;
static int cpu_b;

static int pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *answer(void *unused) {
  (void)unused;
  pin(cpu_b);
  for (long i = 1; i <= total; i++) {
    while (atomic_load_explicit(&ping, memory_order_acquire) != i) {
    }
    atomic_store_explicit(&pong, i, memory_order_release);
  }
  return NULL;
}

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  long per_part = (argc > 1 ? atol(argv[1]) : 200000) / PARTS;
  int cpu_a = argc > 2 ? atoi(argv[2]) : 0;
  cpu_b = argc > 3 ? atoi(argv[3]) : 1;
  if (per_part < 1 || cpu_a < 0 || cpu_b < 0 || cpu_a == cpu_b) {
    fprintf(stderr, "usage: core_latency [round-trips>=%d] [cpu-a] [cpu-b, not cpu-a]\n", PARTS);
    return 2;
  }
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || cpu_a >= CPU_SETSIZE || cpu_b >= CPU_SETSIZE
      || !CPU_ISSET(cpu_a, &allowed) || !CPU_ISSET(cpu_b, &allowed)) {
    /* two spinning threads on one CPU would measure the scheduler, not the cores */
    fprintf(stderr, "core_latency: CPUs %d and %d are not both available to this process\n", cpu_a, cpu_b);
    return 1;
  }
  if (pin(cpu_a) != 0) {
    fprintf(stderr, "core_latency: cannot run on CPU %d\n", cpu_a);
    return 1;
  }
  total = per_part * PARTS;
  pthread_t other;
  if (pthread_create(&other, NULL, answer, NULL) != 0) {
    fprintf(stderr, "core_latency: cannot start a thread\n");
    return 1;
  }
  double ns[PARTS];
  long i = 0;
  for (int p = 0; p < PARTS; p++) {
    double start = now_ns();
    for (long end = i + per_part; i < end;) {
      atomic_store_explicit(&ping, ++i, memory_order_release);
      while (atomic_load_explicit(&pong, memory_order_acquire) != i) {
      }
    }
    ns[p] = (now_ns() - start) / per_part;
  }
  pthread_join(other, NULL);
  qsort(ns, PARTS, sizeof ns[0], by_value);
  printf("core_latency_ns %.1f %.1f %.1f\n", ns[PARTS / 2], ns[0], ns[PARTS - 1]);
  return 0;
}
