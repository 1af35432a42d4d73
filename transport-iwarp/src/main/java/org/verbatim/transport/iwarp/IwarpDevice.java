package org.verbatim.transport.iwarp;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.verbatim.spi.TransportException;
import org.verbatim.transport.verbs.DeviceKind;
import org.verbatim.verbs.CmId;
import org.verbatim.verbs.Context;
import org.verbatim.verbs.DeviceList;
import org.verbatim.verbs.EventChannel;

/**
 * The iWARP device a process uses and the IPv4 address it listens on. The device is
 * {@code verbatim.iwarp.device}, or the first iWARP device (sysfs node type RNIC) with an
 * address; the address is {@code verbatim.iwarp.address}, or the first IPv4 address of a network
 * interface that the RDMA CM binds to that device (what {@code rdma_bind_addr} reports). The
 * device is opened here ({@code ibv_open_device}) for the data path; the RDMA CM ids only carry
 * the connections (their queue pairs are the data path's, by number).
 *
 * @param context the open device (the data path owns it)
 * @param address the address the listener binds to
 */
record IwarpDevice(Context context, InetAddress address) {

    /** The device and address in words, for messages: {@code siw0 (10.202.0.1)}. */
    String describe() {
        return context.name() + " (" + address.getHostAddress() + ")";
    }

    /** Finds and opens the device; TransportException lists what was tried and why it did not fit. */
    static IwarpDevice open(IwarpConfiguration config) throws TransportException {
        List<String> problems = new ArrayList<>();
        try (DeviceList devices = new DeviceList()) {
            List<String> names = config.device.isEmpty() ? devices.names() : List.of(config.device);
            for (String name : names) {
                if (!devices.names().contains(name)) {
                    problems.add(name + ": no such device (have " + devices.names() + ")");
                    continue;
                }
                if (!DeviceKind.isIwarp(name)) {
                    problems.add(name + ": not an iWARP device (use transport ib)");
                    continue;
                }
                InetAddress address = config.address.isEmpty() ? addressOf(name) : parse(config.address);
                if (address == null) {
                    problems.add(name + ": no IPv4 address of this host binds to it");
                    continue;
                }
                return new IwarpDevice(devices.open(name), address);
            }
        } catch (RuntimeException e) {
            throw new TransportException("iwarp: cannot list RDMA devices: " + e.getMessage(), e);
        }
        throw new TransportException("iwarp: no usable iWARP device: " + String.join("; ", problems)
                + " (set " + IwarpConfiguration.DEVICE.name() + " / " + IwarpConfiguration.ADDRESS.name() + ")");
    }

    private static InetAddress parse(String address) throws TransportException {
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new TransportException("iwarp: " + IwarpConfiguration.ADDRESS.name() + "=" + address
                    + " is not an address: " + e.getMessage(), e);
        }
    }

    /** The first IPv4 address the RDMA CM binds to {@code device}, or null. */
    static InetAddress addressOf(String device) {
        List<InetAddress> candidates = new ArrayList<>();
        try {
            for (NetworkInterface nif : NetworkInterface.networkInterfaces().toList()) {
                if (nif.isUp()) {
                    nif.inetAddresses().filter(a -> a instanceof Inet4Address).forEach(candidates::add);
                }
            }
        } catch (SocketException e) {
            return null;
        }
        try (EventChannel channel = new EventChannel()) {
            for (InetAddress a : candidates) {
                try (CmId id = channel.createId()) {
                    id.bind(new InetSocketAddress(a, 0));
                    if (device.equals(id.deviceName())) {
                        return a;
                    }
                } catch (RuntimeException e) {
                    // not an address of an RDMA device: try the next
                }
            }
        }
        return null;
    }
}
