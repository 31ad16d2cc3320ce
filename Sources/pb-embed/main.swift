import PBCore
import PBNeural

Tool.main(EmbedCommand.spec) { try EmbedCommand.run($0) }
