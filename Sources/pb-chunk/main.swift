import PBCore
import PBText

Tool.main(ChunkCommand.spec) { try ChunkCommand.run($0) }
