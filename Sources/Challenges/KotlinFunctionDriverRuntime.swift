extension KotlinFunctionDriver {
  /// The part of the Kotlin driver that is the same for every challenge: the node classes, a small
  /// JSON reader, the conversions and the encoder, the watchdog and the loop over the tests.
  static let runtime = #"""
    private const val LIMIT = 1000000

    class ListNode(var `val`: Long) {
        var next: ListNode? = null
    }

    class TreeNode(var `val`: Long) {
        var left: TreeNode? = null
        var right: TreeNode? = null
    }

    private class Unencodable(what: String) : Exception(what)

    // The driver calls no function of Kotlin's standard library that is not inlined: its file facades
    // (StringsKt, CollectionsKt, ArraysKt...) are large classes outside the JVM's class-data archive, and
    // loading them cost a grade 25 ms. A learner's file pays for those it uses.
    private fun isSpace(c: Char) = c == ' ' || c == '\t' || c == '\r' || c == '\n'

    private fun isNumberChar(c: Char) = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E'

    private fun startsAt(text: String, prefix: String, at: Int): Boolean {
        if (at + prefix.length > text.length) return false
        for (i in 0 until prefix.length) if (text[at + i] != prefix[i]) return false
        return true
    }

    private fun withoutArraySuffix(type: String) = type.substring(0, type.length - 2)

    private class Reader(val text: String) {
        var at = 0
        fun space() { while (at < text.length && isSpace(text[at])) at++ }
        fun value(): Any? {
            space()
            val c = text[at]
            if (c == '{') {
                val fields = LinkedHashMap<String, Any?>()
                at++
                space()
                if (text[at] == '}') { at++; return fields }
                while (true) {
                    val key = value() as String
                    space()
                    at++
                    fields[key] = value()
                    space()
                    if (text[at++] == '}') return fields
                }
            }
            if (c == '[') {
                val items = ArrayList<Any?>()
                at++
                space()
                if (text[at] == ']') { at++; return items }
                while (true) {
                    items.add(value())
                    space()
                    if (text[at++] == ']') return items
                }
            }
            if (c == '"') {
                val out = StringBuilder()
                at++
                while (text[at] != '"') {
                    val d = text[at++]
                    if (d != '\\') { out.append(d); continue }
                    when (val e = text[at++]) {
                        'n' -> out.append('\n')
                        't' -> out.append('\t')
                        'r' -> out.append('\r')
                        'b' -> out.append('\b')
                        'f' -> out.append('\u000c')
                        'u' -> { out.append(Integer.parseInt(text.substring(at, at + 4), 16).toChar()); at += 4 }
                        else -> out.append(e)
                    }
                }
                at++
                return out.toString()
            }
            if (startsAt(text, "true", at)) { at += 4; return true }
            if (startsAt(text, "false", at)) { at += 5; return false }
            if (startsAt(text, "null", at)) { at += 4; return null }
            val start = at
            var whole = true
            while (at < text.length && isNumberChar(text[at])) {
                if (text[at] == '.' || text[at] == 'e' || text[at] == 'E') whole = false
                at++
            }
            val literal = text.substring(start, at)
            return if (whole) java.lang.Long.parseLong(literal) else java.lang.Double.parseDouble(literal)
        }
    }

    private fun classOf(type: String): Class<*> = when (type) {
        "int" -> java.lang.Long.TYPE
        "float" -> java.lang.Double.TYPE
        "bool" -> java.lang.Boolean.TYPE
        "string" -> String::class.java
        "linked_list" -> ListNode::class.java
        "tree" -> TreeNode::class.java
        "graph" -> List::class.java
        else -> java.lang.reflect.Array.newInstance(classOf(withoutArraySuffix(type)), 0).javaClass
    }

    private fun convert(json: Any?, type: String): Any? {
        when (type) {
            "int" -> return (json as Number).toLong()
            "float" -> return (json as Number).toDouble()
            "bool", "string" -> return json
            "linked_list" -> {
                val values = json as List<*>
                var head: ListNode? = null
                for (i in values.size - 1 downTo 0) head = ListNode((values[i] as Number).toLong()).also { it.next = head }
                return head
            }
            "tree" -> return toTree(json as List<*>)
            "graph" -> {
                val graph = json as Map<*, *>
                val count = (graph["n"] as Number).toInt()
                val adjacency = ArrayList<ArrayList<Int>>(count)
                for (i in 0 until count) adjacency.add(ArrayList<Int>())
                for (edge in graph["edges"] as List<*>) {
                    val ends = edge as List<*>
                    val u = (ends[0] as Number).toInt()
                    val v = (ends[1] as Number).toInt()
                    adjacency[u].add(v)
                    if (graph["directed"] != true && u != v) adjacency[v].add(u)
                }
                return adjacency
            }
        }
        val element = withoutArraySuffix(type)
        val items = json as List<*>
        val array = java.lang.reflect.Array.newInstance(classOf(element), items.size)
        for (i in 0 until items.size) java.lang.reflect.Array.set(array, i, convert(items[i], element))
        return array
    }

    private fun toTree(values: List<*>): TreeNode? {
        if (values.isEmpty() || values[0] == null) return null
        val root = TreeNode((values[0] as Number).toLong())
        val queue = java.util.ArrayDeque<TreeNode>()
        queue.addLast(root)
        var index = 1
        while (!queue.isEmpty() && index < values.size) {
            val node = queue.removeFirst()
            val left = values[index++]
            if (left != null) node.left = TreeNode((left as Number).toLong()).also { queue.addLast(it) }
            val right = if (index < values.size) values[index] else null
            index++
            if (right != null) node.right = TreeNode((right as Number).toLong()).also { queue.addLast(it) }
        }
        return root
    }

    private fun quote(text: String): String {
        val out = StringBuilder("\"")
        for (c in text) {
            when {
                c == '"' -> out.append("\\\"")
                c == '\\' -> out.append("\\\\")
                c == '\n' -> out.append("\\n")
                c < ' ' -> out.append(String.format("\\u%04x", c.code))
                else -> out.append(c)
            }
        }
        return out.append('"').toString()
    }

    private fun encode(value: Any?, out: StringBuilder) {
        when (value) {
            null -> out.append("null")
            is Boolean, is Long, is Int, is Short, is Byte -> out.append(value)
            is Double, is Float -> {
                val number = (value as Number).toDouble()
                out.append(
                    when {
                        number.isNaN() -> "\"NaN\""
                        number.isInfinite() -> if (number > 0) "\"Infinity\"" else "\"-Infinity\""
                        else -> number.toString()
                    })
            }
            is String -> out.append(quote(value))
            is ListNode -> {
                out.append('[')
                var node: ListNode? = value
                var count = 0
                while (node != null) {
                    if (count >= LIMIT) throw Unencodable("linked list of more than a million nodes (a cycle?)")
                    if (count++ > 0) out.append(',')
                    out.append(node.`val`)
                    node = node.next
                }
                out.append(']')
            }
            is TreeNode -> encodeTree(value, out)
            is List<*> -> encodeItems(value.size, { value[it] }, out)
            else -> {
                if (!value.javaClass.isArray) throw Unencodable(value.javaClass.simpleName)
                encodeItems(java.lang.reflect.Array.getLength(value), { java.lang.reflect.Array.get(value, it) }, out)
            }
        }
    }

    private fun encodeItems(count: Int, item: (Int) -> Any?, out: StringBuilder) {
        out.append('[')
        for (i in 0 until count) {
            if (i > 0) out.append(',')
            encode(item(i), out)
        }
        out.append(']')
    }

    private fun encodeTree(root: TreeNode, out: StringBuilder) {
        val queue = ArrayList<TreeNode?>()
        queue.add(root)
        val values = ArrayList<String>()
        var head = 0
        while (head < queue.size) {
            if (values.size >= 2 * LIMIT) throw Unencodable("tree of more than a million nodes (a cycle?)")
            val node = queue[head++]
            if (node == null) { values.add("null"); continue }
            values.add(node.`val`.toString())
            queue.add(node.left)
            queue.add(node.right)
        }
        var count = values.size
        while (count > 0 && values[count - 1] == "null") count--
        out.append('[')
        for (i in 0 until count) {
            if (i > 0) out.append(',')
            out.append(values[i])
        }
        out.append(']')
    }

    // The test thread's CPU time, readable from the watchdog: /proc's schedstat (nanoseconds on a
    // CPU) where the box has /proc, else ThreadMXBean, whose module costs every grade about 13 ms of
    // JVM start-up, so it is loaded only then.
    class ThreadClock {
        private val threadId = Thread.currentThread().id
        private val buffer = ByteArray(64)
        private val schedstat: String? =
            try {
                (java.io.File("/proc/thread-self").canonicalPath + "/schedstat").takeIf { java.io.File(it).canRead() }
            } catch (unavailable: java.io.IOException) {
                null
            }

        fun nanoseconds(): Long {
            if (schedstat != null) {
                try {
                    val input = java.io.FileInputStream(schedstat)
                    val length = try { input.read(buffer) } finally { input.close() }
                    var value = 0L
                    var digits = 0
                    while (digits < length && buffer[digits] >= '0'.code.toByte() && buffer[digits] <= '9'.code.toByte()) {
                        value = value * 10 + (buffer[digits++] - '0'.code.toByte())
                    }
                    if (digits > 0) return value
                } catch (unreadable: java.io.IOException) {
                    // Falls through to the management bean.
                }
            }
            return java.lang.management.ManagementFactory.getThreadMXBean().getThreadCpuTime(threadId)
        }
    }

    object DsaDriver {
        private val lock = Object()
        private val report = FileOutputStream(FileDescriptor.out)
        private lateinit var testClock: ThreadClock
        private var nonce = ""
        private var current = -1L
        private var cpuStart = 0L
        private var wallStart = 0L
        private var cpuBudget = 0L
        private var wallBudget = 0L
        private var armed = false

        private fun emit(line: String) {
            synchronized(lock) { report.write(("\n" + line + "\n").toByteArray(java.nio.charset.StandardCharsets.UTF_8)) }
        }

        private fun watch() {
            while (true) {
                Thread.sleep(5)
                synchronized(lock) {
                    if (!armed) return@synchronized
                    val cpu = testClock.nanoseconds() - cpuStart
                    val wall = System.nanoTime() - wallStart
                    val kind = if (cpu >= cpuBudget) "cpu" else if (wall >= wallBudget) "wall" else return@synchronized
                    emit("@limit $nonce {\"test\":$current,\"kind\":\"$kind\"}")
                    Runtime.getRuntime().halt(3)
                }
            }
        }

        // Cuts the driver's and reflection's frames off a learner's exception: what is left is theirs.
        private fun trim(error: Throwable) {
            val trace = error.stackTrace
            val end = trace.indexOfFirst {
                it.className.startsWith("jdk.internal.reflect.") || it.className.startsWith("java.lang.reflect.")
            }
            if (end >= 0) error.stackTrace = java.util.Arrays.copyOfRange(trace, 0, end)
        }

        private fun receiver(solution: Class<*>, method: Method): Any? {
            if (Modifier.isStatic(method.modifiers)) return null
            val instance = solution.declaredFields.firstOrNull { it.name == "INSTANCE" && Modifier.isStatic(it.modifiers) }
            if (instance != null) return instance.get(null)
            val constructor = solution.getDeclaredConstructor()
            constructor.isAccessible = true
            return constructor.newInstance()
        }

        @JvmStatic
        fun main(arguments: Array<String>) {
            val input = String(System.`in`.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
            var newline = 0
            while (input[newline] != '\n') newline++
            var nonceEnd = newline
            while (nonceEnd > 0 && isSpace(input[nonceEnd - 1])) nonceEnd--
            nonce = input.substring(0, nonceEnd)
            val request = Reader(input.substring(newline + 1)).value() as Map<*, *>
            // The learner's prints go to stderr; the report is written to stdout by the driver alone.
            val learner = PrintStream(FileOutputStream(FileDescriptor.err), true, "UTF-8")
            System.setOut(learner)
            System.setErr(learner)
            val classes = Array(TYPES.size) { classOf(TYPES[it]) }
            // In class Solution (or object Solution), or at the top level of solution.kt.
            var method: Method? = null
            for (name in arrayOf("Solution", "SolutionKt")) {
                if (method != null) break
                method = try {
                    Class.forName(name).getDeclaredMethod(FUNCTION, *classes)
                } catch (missing: ReflectiveOperationException) {
                    null
                }
            }
            if (method == null) {
                emit("@missing $nonce")
                return
            }
            method.isAccessible = true
            val solution = method.declaringClass
            cpuBudget = (request["cpu_ms"] as Number).toLong() * 1000000L
            wallBudget = (request["wall_ms"] as Number).toLong() * 1000000L
            testClock = ThreadClock()
            // An object, not a function reference: the JVM's lambda bootstrap costs milliseconds.
            val watchdog = Thread(object : Runnable {
                override fun run() = watch()
            }, "dsa-watchdog")
            watchdog.isDaemon = true
            watchdog.start()
            // A test's result waits to go out with the next test's begin, one write for both: every write
            // wakes the host's reader.
            var result = ""
            for (item in request["tests"] as List<*>) {
                val test = item as Map<*, *>
                val index = (test["index"] as Number).toLong()
                emit(result + "@begin $nonce $index")
                result = ""
                learner.flush()
                learner.print("\n@begin $nonce $index\n")
                learner.flush()
                val args = test["args"] as List<*>
                val values = Array(TYPES.size) { convert(args[it], TYPES[it]) }
                var fields: String? = null
                var value: Any? = null
                synchronized(lock) {
                    current = index
                    cpuStart = testClock.nanoseconds()
                    wallStart = System.nanoTime()
                    armed = true
                }
                try {
                    value = method.invoke(receiver(solution, method), *values)
                } catch (error: InvocationTargetException) {
                    val cause = error.cause ?: error
                    trim(cause)
                    cause.printStackTrace(learner)
                    fields = ",\"raised\":" + quote(cause.toString())
                } catch (error: ReflectiveOperationException) {
                    fields = ",\"raised\":" + quote("the driver could not call $SIGNATURE: $error")
                } catch (error: IllegalArgumentException) {
                    fields = ",\"raised\":" + quote("the driver could not call $SIGNATURE: $error")
                }
                val cpuMs: Long
                val wallMs: Long
                synchronized(lock) {
                    armed = false
                    cpuMs = (testClock.nanoseconds() - cpuStart) / 1000000L
                    wallMs = (System.nanoTime() - wallStart) / 1000000L
                }
                learner.flush()
                if (fields == null) {
                    val encoded = StringBuilder()
                    fields = try {
                        if (value == null && (RESULT == "linked_list" || RESULT == "tree")) encoded.append("[]")
                        else encode(value, encoded)
                        ",\"value\":$encoded"
                    } catch (error: Unencodable) {
                        ",\"unencodable\":" + quote("a " + error.message)
                    } catch (error: StackOverflowError) {
                        ",\"unencodable\":\"a value nested too deeply\""
                    }
                }
                result = "@result $nonce {\"test\":$index,\"cpu_ms\":$cpuMs,\"wall_ms\":$wallMs$fields}\n"
            }
            learner.flush()
            emit(result + "@done $nonce")
        }
    }

    """#
}
