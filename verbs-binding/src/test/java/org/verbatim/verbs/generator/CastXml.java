package org.verbatim.verbs.generator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * An index over castxml's XML output (format 1.x): elements by id, files by id, and type
 * resolution through typedefs, cv-qualifiers and elaborated types.
 */
final class CastXml {

    private final Map<String, Element> byId = new HashMap<>();
    private final Map<String, String> fileNames = new HashMap<>();
    private final Map<String, String> typedefNameOfRecord = new HashMap<>();
    private final List<Element> all = new ArrayList<>();

    CastXml(Path xml) throws Exception {
        var factory = DocumentBuilderFactory.newInstance();
        var doc = factory.newDocumentBuilder().parse(xml.toFile());
        var children = doc.getDocumentElement().getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            Node n = children.item(i);
            if (n instanceof Element e) {
                all.add(e);
                if (e.getTagName().equals("File")) {
                    fileNames.put(e.getAttribute("id"), e.getAttribute("name"));
                } else if (e.hasAttribute("id")) {
                    byId.put(e.getAttribute("id"), e);
                }
            }
        }
        for (Element e : all) {
            if (e.getTagName().equals("Typedef")) {
                Element target = stripToRecord(e.getAttribute("type"));
                if (target != null && name(target).isEmpty()) {
                    typedefNameOfRecord.putIfAbsent(target.getAttribute("id"), e.getAttribute("name"));
                }
            }
        }
    }

    /** Every top-level element in document order. */
    List<Element> elements() {
        return all;
    }

    Element byId(String id) {
        Element e = byId.get(id);
        if (e == null) {
            throw new IllegalStateException("castxml: unknown id " + id);
        }
        return e;
    }

    /** The path of the file an element was declared in ("" if none). */
    String fileOf(Element e) {
        return fileNames.getOrDefault(e.getAttribute("file"), "");
    }

    /** The element's name attribute, "" when anonymous. */
    static String name(Element e) {
        return e.getAttribute("name");
    }

    /** The name a record is known by: its tag, else the typedef naming it, else "". */
    String recordName(Element record) {
        String n = name(record);
        return n.isEmpty() ? typedefNameOfRecord.getOrDefault(record.getAttribute("id"), "") : n;
    }

    /** True if the record was declared through a typedef of an anonymous struct/union. */
    boolean isTypedefOnly(Element record) {
        return name(record).isEmpty() && typedefNameOfRecord.containsKey(record.getAttribute("id"));
    }

    /** The member elements of a record that are fields (not nested declarations). */
    List<Element> fields(Element record) {
        List<Element> out = new ArrayList<>();
        String members = record.getAttribute("members").trim();
        if (members.isEmpty()) {
            return out;
        }
        for (String id : members.split("\\s+")) {
            Element m = byId.get(id);
            if (m != null && m.getTagName().equals("Field")) {
                out.add(m);
            }
        }
        return out;
    }

    private Element stripToRecord(String typeId) {
        Element e = byId.get(typeId);
        while (e != null) {
            switch (e.getTagName()) {
                case "ElaboratedType", "CvQualifiedType" -> e = byId.get(e.getAttribute("type"));
                case "Struct", "Union" -> { return e; }
                default -> { return null; }
            }
        }
        return null;
    }

    /** Resolves a type id to the generator's view of it. */
    CType resolve(String typeId) {
        Element e = byId(typeId);
        return switch (e.getTagName()) {
            case "Typedef", "ElaboratedType", "CvQualifiedType" -> resolve(e.getAttribute("type"));
            case "PointerType" -> new CType.Pointer(bytes(e, "size"), bytes(e, "align"));
            case "FundamentalType" -> fundamental(e);
            case "Enumeration" -> integer(bytes(e, "size"));
            case "ArrayType" -> {
                String max = e.getAttribute("max");
                CType element = resolve(e.getAttribute("type"));
                boolean flexible = max.isEmpty();
                long count = flexible ? 0 : Long.parseLong(max) + 1;
                yield new CType.Array(element, count, flexible);
            }
            case "Struct", "Union" -> new CType.Record(e, e.getTagName().equals("Union"),
                    bytes(e, "size"), bytes(e, "align"));
            default -> throw new IllegalStateException("castxml: unsupported type " + e.getTagName() + " " + typeId);
        };
    }

    private static long bytes(Element e, String attribute) {
        String v = e.getAttribute(attribute);
        return v.isEmpty() ? 0 : Long.parseLong(v) / 8;
    }

    private static CType fundamental(Element e) {
        String n = name(e);
        long size = bytes(e, "size");
        return switch (n) {
            case "void" -> new CType.Void();
            case "float" -> new CType.Scalar("JAVA_FLOAT", "float", 4, 4);
            case "double" -> new CType.Scalar("JAVA_DOUBLE", "double", 8, 8);
            case "_Bool" -> new CType.Scalar("JAVA_BOOLEAN", "boolean", 1, 1);
            case "long double", "__int128", "unsigned __int128" -> new CType.Opaque(size, bytes(e, "align"));
            default -> integer(size);
        };
    }

    private static CType integer(long size) {
        return switch ((int) size) {
            case 1 -> new CType.Scalar("JAVA_BYTE", "byte", 1, 1);
            case 2 -> new CType.Scalar("JAVA_SHORT", "short", 2, 2);
            case 4 -> new CType.Scalar("JAVA_INT", "int", 4, 4);
            case 8 -> new CType.Scalar("JAVA_LONG", "long", 8, 8);
            default -> throw new IllegalStateException("no integer of " + size + " bytes");
        };
    }
}
