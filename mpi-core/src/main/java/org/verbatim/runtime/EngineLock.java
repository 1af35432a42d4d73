package org.verbatim.runtime;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's lock: a real lock under MPI_THREAD_MULTIPLE, nothing at all at the lower thread
 * levels, where the application promises that one thread calls MPI at a time.
 */
abstract class EngineLock {
    abstract void lock();

    abstract void unlock();

    static EngineLock forThreadLevel(int level) {
        return level >= 3 ? new Real() : new None();
    }

    static final class Real extends EngineLock {
        private final ReentrantLock lock = new ReentrantLock();

        @Override
        void lock() {
            lock.lock();
        }

        @Override
        void unlock() {
            lock.unlock();
        }
    }

    static final class None extends EngineLock {
        @Override
        void lock() {
        }

        @Override
        void unlock() {
        }
    }
}
