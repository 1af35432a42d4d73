package org.verbatim.runtime.base;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's lock: a real lock under MPI_THREAD_MULTIPLE, nothing at all at the lower thread
 * levels, where the application promises that one thread calls MPI at a time.
 */
public abstract class EngineLock {
    public abstract void lock();

    public abstract void unlock();

    public static EngineLock forThreadLevel(int level) {
        return level >= 3 ? new Real() : new None();
    }

    static final class Real extends EngineLock {
        private final ReentrantLock lock = new ReentrantLock();

        @Override
        public void lock() {
            lock.lock();
        }

        @Override
        public void unlock() {
            lock.unlock();
        }
    }

    static final class None extends EngineLock {
        @Override
        public void lock() {
        }

        @Override
        public void unlock() {
        }
    }
}
