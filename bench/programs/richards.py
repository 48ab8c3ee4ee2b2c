# Richards: an operating-system task scheduler simulation (after Martin Richards' benchmark, as in
# pyperformance): classes, attribute access, method calls, small-int arithmetic.
I_IDLE, I_WORK, I_HANDLERA, I_HANDLERB, I_DEVA, I_DEVB = 1, 2, 3, 4, 5, 6
K_DEV, K_WORK = 1000, 1001
BUFSIZE = 4


class Packet:
    def __init__(self, link, ident, kind):
        self.link = link
        self.ident = ident
        self.kind = kind
        self.datum = 0
        self.data = [0] * BUFSIZE

    def append_to(self, lst):
        self.link = None
        if lst is None:
            return self
        p = lst
        nxt = p.link
        while nxt is not None:
            p = nxt
            nxt = p.link
        p.link = self
        return lst


class TaskRec:
    pass


class DeviceTaskRec(TaskRec):
    def __init__(self):
        self.pending = None


class IdleTaskRec(TaskRec):
    def __init__(self):
        self.control = 1
        self.count = 10000


class HandlerTaskRec(TaskRec):
    def __init__(self):
        self.work_in = None
        self.device_in = None

    def work_in_add(self, p):
        self.work_in = p.append_to(self.work_in)
        return self.work_in

    def device_in_add(self, p):
        self.device_in = p.append_to(self.device_in)
        return self.device_in


class WorkerTaskRec(TaskRec):
    def __init__(self):
        self.destination = I_HANDLERA
        self.count = 0


class TaskState:
    def __init__(self):
        self.packet_pending = True
        self.task_waiting = False
        self.task_holding = False

    def packet_pending_state(self):
        self.packet_pending = True
        self.task_waiting = False
        self.task_holding = False
        return self

    def waiting(self):
        self.packet_pending = False
        self.task_waiting = True
        self.task_holding = False
        return self

    def running(self):
        self.packet_pending = False
        self.task_waiting = False
        self.task_holding = False
        return self

    def waiting_with_packet(self):
        self.packet_pending = True
        self.task_waiting = True
        self.task_holding = False
        return self

    def is_task_holding_or_waiting(self):
        return self.task_holding or (not self.packet_pending and self.task_waiting)

    def is_waiting_with_packet(self):
        return self.packet_pending and self.task_waiting and not self.task_holding


class Globals:
    pass


class Task(TaskState):
    def __init__(self, g, i, p, w, initial_state, r):
        self.g = g
        self.link = g.task_list
        self.ident = i
        self.priority = p
        self.input = w
        self.packet_pending = initial_state.packet_pending
        self.task_waiting = initial_state.task_waiting
        self.task_holding = initial_state.task_holding
        self.handle = r
        g.task_list = self
        g.task_tab[i] = self

    def add_packet(self, p, old):
        if self.input is None:
            self.input = p
            self.packet_pending = True
            if self.priority > old.priority:
                return self
        else:
            p.append_to(self.input)
        return old

    def run_task(self):
        if self.is_waiting_with_packet():
            msg = self.input
            self.input = msg.link
            if self.input is None:
                self.running()
            else:
                self.packet_pending_state()
        else:
            msg = None
        return self.fn(msg, self.handle)

    def wait_task(self):
        self.task_waiting = True
        return self

    def hold(self):
        self.g.hold_count += 1
        self.task_holding = True
        return self.link

    def release(self, i):
        t = self.find_tcb(i)
        t.task_holding = False
        if t.priority > self.priority:
            return t
        return self

    def qpkt(self, pkt):
        t = self.find_tcb(pkt.ident)
        self.g.qpkt_count += 1
        pkt.link = None
        pkt.ident = self.ident
        return t.add_packet(pkt, self)

    def find_tcb(self, ident):
        return self.g.task_tab[ident]


class DeviceTask(Task):
    def fn(self, pkt, r):
        d = r
        if pkt is None:
            pkt = d.pending
            if pkt is None:
                return self.wait_task()
            d.pending = None
            return self.qpkt(pkt)
        d.pending = pkt
        return self.hold()


class HandlerTask(Task):
    def fn(self, pkt, r):
        h = r
        if pkt is not None:
            if pkt.kind == K_WORK:
                h.work_in_add(pkt)
            else:
                h.device_in_add(pkt)
        work = h.work_in
        if work is None:
            return self.wait_task()
        count = work.datum
        if count >= BUFSIZE:
            h.work_in = work.link
            return self.qpkt(work)
        dev = h.device_in
        if dev is None:
            return self.wait_task()
        h.device_in = dev.link
        dev.datum = work.data[count]
        work.datum = count + 1
        return self.qpkt(dev)


class IdleTask(Task):
    def fn(self, pkt, r):
        i = r
        i.count -= 1
        if i.count == 0:
            return self.hold()
        if i.control & 1 == 0:
            i.control = i.control // 2
            return self.release(I_DEVA)
        i.control = i.control // 2 ^ 0xD008
        return self.release(I_DEVB)


class WorkTask(Task):
    def fn(self, pkt, r):
        w = r
        if pkt is None:
            return self.wait_task()
        dest = I_HANDLERB if w.destination == I_HANDLERA else I_HANDLERA
        w.destination = dest
        pkt.ident = dest
        pkt.datum = 0
        for i in range(BUFSIZE):
            w.count += 1
            if w.count > 26:
                w.count = 1
            pkt.data[i] = ord("A") + w.count - 1
        return self.qpkt(pkt)


def schedule(g):
    t = g.task_list
    while t is not None:
        if t.is_task_holding_or_waiting():
            t = t.link
        else:
            t = t.run_task()


def main():
    g = Globals()
    g.task_tab = [None] * 10
    g.task_list = None
    g.hold_count = 0
    g.qpkt_count = 0
    IdleTask(g, I_IDLE, 1, 10000, TaskState().running(), IdleTaskRec())
    wkq = Packet(None, 0, K_WORK)
    wkq = Packet(wkq, 0, K_WORK)
    WorkTask(g, I_WORK, 1000, wkq, TaskState().waiting_with_packet(), WorkerTaskRec())
    wkq = Packet(None, I_DEVA, K_DEV)
    wkq = Packet(wkq, I_DEVA, K_DEV)
    wkq = Packet(wkq, I_DEVA, K_DEV)
    HandlerTask(g, I_HANDLERA, 2000, wkq, TaskState().waiting_with_packet(), HandlerTaskRec())
    wkq = Packet(None, I_DEVB, K_DEV)
    wkq = Packet(wkq, I_DEVB, K_DEV)
    wkq = Packet(wkq, I_DEVB, K_DEV)
    HandlerTask(g, I_HANDLERB, 3000, wkq, TaskState().waiting_with_packet(), HandlerTaskRec())
    DeviceTask(g, I_DEVA, 4000, None, TaskState().waiting(), DeviceTaskRec())
    DeviceTask(g, I_DEVB, 5000, None, TaskState().waiting(), DeviceTaskRec())
    schedule(g)
    assert g.hold_count == 9297 and g.qpkt_count == 23246, (g.hold_count, g.qpkt_count)
    return g.qpkt_count
