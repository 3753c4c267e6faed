// Prints, for a fixed set of doubles, "bits<TAB>Double.toString(d)" one per line: the digits
// HBase's OrderedBytes.encodeNumeric(double) encodes (it goes through BigDecimal.valueOf,
// that is Double.toString). Run it on JDK 17 and on a JDK of 19 or later and join the two
// outputs to make tests/data/hbase_double_digits.tsv (see that file's header).
import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;

public class HBaseDoubleDigits {
    public static void main(String[] args) {
        int random = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        Set<Long> bits = new LinkedHashSet<>();
        double[] named = {
            Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, 1.0, 0.1, 0.3, 2.0 / 3.0,
            83921203583632.625, 1e23, 5e-324, 1e-323, 9007199254740993.0, 4.35, 0.001, 1e7,
        };
        for (double d : named) {
            bits.add(Double.doubleToRawLongBits(d));
        }
        for (int e = -1074; e <= 1023; e++) {
            double p = Math.scalb(1.0, e);
            bits.add(Double.doubleToRawLongBits(p));
            bits.add(Double.doubleToRawLongBits(Math.nextUp(p)));
            bits.add(Double.doubleToRawLongBits(Math.nextDown(p)));
        }
        for (int e = -323; e <= 308; e++) {
            double p = Double.parseDouble("1e" + e);
            bits.add(Double.doubleToRawLongBits(p));
            bits.add(Double.doubleToRawLongBits(Math.nextUp(p)));
            bits.add(Double.doubleToRawLongBits(Math.nextDown(p)));
        }
        Random rng = new Random(20240501L);
        for (int i = 0; i < random; i++) {
            long b = rng.nextLong() & Long.MAX_VALUE;
            double d = Double.longBitsToDouble(b);
            if (!Double.isNaN(d) && !Double.isInfinite(d)) {
                bits.add(b);
            }
            bits.add(rng.nextLong() & 0x000f_ffff_ffff_ffffL); // a subnormal
            bits.add(Double.doubleToRawLongBits(rng.nextInt() / 1000.0)); // a decimal-looking one
            bits.add(Double.doubleToRawLongBits((double) (rng.nextLong() >>> 10))); // an integer
        }
        bits.remove(0L);
        StringBuilder out = new StringBuilder();
        for (long b : bits) {
            out.append(String.format("%016x", b)).append('\t')
                .append(Double.toString(Double.longBitsToDouble(b))).append('\n');
        }
        System.out.print(out);
    }
}
