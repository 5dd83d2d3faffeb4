package org.hetscope.formats.chrome;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.hetscope.model.JsonText;
import org.junit.jupiter.api.Test;

/** The args JSON that readers write must parse back, with Jackson, to the very strings that went in. */
class JsonQuoteTest {
    private static final String ALPHABET = "ab \"\\/\n\r\t\u0000\u0001\u001f\u007fé漢\uD83D\uDE80";

    @Test
    void quotedTextParsesBackToTheOriginal() throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        Random random = new Random(3);
        for (int n = 0; n < 2000; n++) {
            StringBuilder original = new StringBuilder();
            int len = random.nextInt(30);
            for (int i = 0; i < len; i++) {
                int at = random.nextInt(ALPHABET.length());
                char c = ALPHABET.charAt(at);
                original.append(c);
                if (Character.isHighSurrogate(c)) {
                    original.append(ALPHABET.charAt(at + 1));
                }
            }
            String text = original.toString();
            StringBuilder viaString = new StringBuilder();
            JsonText.quote(viaString, text);
            assertEquals(text, mapper.readValue(viaString.toString(), String.class));

            char[] padded = ("<<" + text + ">>").toCharArray();
            StringBuilder viaChars = new StringBuilder();
            JsonText.quote(viaChars, padded, 2, text.length());
            assertEquals(viaString.toString(), viaChars.toString());

            JsonText object = new JsonText().put(text, text);
            assertEquals(text, mapper.readTree(object.toString()).get(text).asText());

            // keys encoded once, as readers do for fields that repeat on every line, give the same text
            JsonText encoded = new JsonText().putEncoded(JsonText.encodeKey("k" + text), text)
                    .putEncoded(JsonText.encodeKey(text), null);
            assertEquals(new JsonText().put("k" + text, text).put(text, (String) null).toString(), encoded.toString());
            assertEquals(text, mapper.readTree(encoded.toString()).get("k" + text).asText());
        }
    }
}
